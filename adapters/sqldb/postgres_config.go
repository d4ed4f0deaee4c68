package sqldb

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Defaults of what every PostgreSQL connection of the service shares, unless the URL sets
// them (libpq's parameter names): connect_timeout bounds a new connection's dial and
// handshake; tcp_user_timeout (milliseconds) bounds how long a connection waits for the
// server to acknowledge what it sent, and keepalive probes find a silent server while a
// query waits. Without them a network that drops packets holds a statement for TCP's
// retransmission timeout (about 15 minutes) and a new connection for the dial's.
const (
	defaultConnectTimeout = "5"
	defaultTCPUserTimeout = 30 * time.Second
	keepAliveIdle         = 15 * time.Second
	keepAliveInterval     = 5 * time.Second
	keepAliveCount        = 3
)

// postgresConfig parses a postgres:// URL for pgx with those settings.
func postgresConfig(dsn string) (*pgx.ConnConfig, error) {
	userTimeout := defaultTCPUserTimeout
	if u, err := url.Parse(dsn); err == nil {
		q := u.Query()
		if v := q.Get("tcp_user_timeout"); v != "" {
			ms, err := strconv.Atoi(v)
			if err != nil || ms < 0 {
				return nil, fmt.Errorf("database url: tcp_user_timeout %q is not a number of milliseconds", v)
			}
			userTimeout = time.Duration(ms) * time.Millisecond
			q.Del("tcp_user_timeout") // libpq's name; the server would refuse it as a setting
		}
		if !q.Has("connect_timeout") {
			q.Set("connect_timeout", defaultConnectTimeout)
		}
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("database url: %w", err)
	}
	dialer := &net.Dialer{
		KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: keepAliveIdle, Interval: keepAliveInterval, Count: keepAliveCount},
		Control:         func(network, _ string, c syscall.RawConn) error { return setTCPUserTimeout(network, c, userTimeout) },
	}
	cfg.DialFunc = dialer.DialContext
	return cfg, nil
}
