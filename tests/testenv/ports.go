package testenv

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Ports handed to a process the test starts (the binary, a container, nats-server) are
// free when picked and bound seconds later. A port from the kernel's ephemeral range can
// be taken in that gap by any outbound connection on the machine (the suite opens
// thousands to PostgreSQL); CI saw "bind: address already in use" that way. So these
// ports come from below that range, at random, checked bindable, never twice per process.

var handedOut sync.Map

// PickFreePort returns a port on 127.0.0.1 that nothing listens on, outside the
// ephemeral range.
func PickFreePort() (int, error) {
	low := ephemeralLow()
	const floor = 20000
	if low-floor < 1000 { // an unusual range: fall back to the kernel's pick
		return kernelPort()
	}
	for range 200 {
		port := floor + rand.IntN(low-floor)
		if _, taken := handedOut.LoadOrStore(port, true); taken {
			continue
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue
		}
		_ = ln.Close()
		return port, nil
	}
	return 0, fmt.Errorf("no free port found below %d", low)
}

// FreeAddr returns "127.0.0.1:port" from PickFreePort, failing the test otherwise.
func FreeAddr(t testing.TB) string {
	t.Helper()
	return "127.0.0.1:" + FreePort(t)
}

// FreePort returns a port from PickFreePort as a string, failing the test otherwise.
func FreePort(t testing.TB) string {
	t.Helper()
	port, err := PickFreePort()
	if err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa(port)
}

// ephemeralLow reads the first port the kernel hands to outbound connections (Linux),
// or the IANA default elsewhere.
func ephemeralLow() int {
	raw, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 49152
	}
	fields := strings.Fields(string(raw))
	if len(fields) == 0 {
		return 49152
	}
	low, err := strconv.Atoi(fields[0])
	if err != nil {
		return 49152
	}
	return low
}

func kernelPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
