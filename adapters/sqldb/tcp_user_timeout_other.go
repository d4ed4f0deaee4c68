//go:build !linux

package sqldb

import (
	"syscall"
	"time"
)

// setTCPUserTimeout does nothing where TCP_USER_TIMEOUT is Linux's alone: the keepalive
// probes still find a silent server.
func setTCPUserTimeout(string, syscall.RawConn, time.Duration) error { return nil }
