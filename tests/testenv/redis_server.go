package testenv

import (
	"fmt"
	"net"
	"os/exec"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// RedisServer is a redis-server process of the test's own on a free loopback port, which
// the test may crash (SIGKILL) and start again on the same port.
type RedisServer struct {
	URL  string
	port int
	cmd  *exec.Cmd
}

// StartRedisServer starts redis-server without persistence; killed at cleanup. Skipped
// loudly when redis-server is not installed.
func StartRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		SkipSuite(t, "Redis fault", "redis-server not found", "install redis-server")
	}
	s := &RedisServer{port: freePort(t)}
	s.URL = fmt.Sprintf("redis://127.0.0.1:%d/0", s.port)
	s.Start(t)
	t.Cleanup(func() { s.Crash(t) })
	return s
}

// Start runs the server and waits until it accepts connections.
func (s *RedisServer) Start(t testing.TB) {
	t.Helper()
	s.cmd = exec.Command("redis-server", "--port", fmt.Sprint(s.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start redis-server: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.port))
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server not listening after 10 s: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Crash kills the server (SIGKILL): its counts are gone, as after a crash without persistence.
func (s *RedisServer) Crash(t testing.TB) {
	t.Helper()
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Use counts rate limits on this server, probing every probe while it is away.
func (s *RedisServer) Use(probe time.Duration) fx.Option {
	return fx.Decorate(func(c compose.Config) compose.Config {
		c.RateLimitStore, c.RedisURL, c.RedisPrefix, c.RedisProbeInterval = "redis", s.URL, "creatorapi-fault:", probe
		return c
	})
}
