package sqldb

import (
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// setTCPUserTimeout sets TCP_USER_TIMEOUT on a TCP socket before it connects (0 keeps the
// kernel's default); a Unix socket has no network to lose.
func setTCPUserTimeout(network string, c syscall.RawConn, timeout time.Duration) error {
	if !strings.HasPrefix(network, "tcp") || timeout <= 0 {
		return nil
	}
	var setErr error
	if err := c.Control(func(fd uintptr) {
		setErr = unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_USER_TIMEOUT, int(timeout.Milliseconds()))
	}); err != nil {
		return err
	}
	return setErr
}
