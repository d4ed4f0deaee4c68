package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// RedisURLVar names the variable that enables the Redis runs.
const RedisURLVar = "CREATORAPI_TEST_REDIS_URL"

// UseRedis counts rate limits in Redis under a namespace of this test's own, so that
// tests and runs never share counters. Pass the same option to every instance that must
// share the quota. Skipped loudly without CREATORAPI_TEST_REDIS_URL; a failure under CI.
func UseRedis(t testing.TB) fx.Option {
	t.Helper()
	url := serviceURL(t, RedisURLVar, "Redis", "redis://127.0.0.1:6379/0")
	var b [6]byte
	_, _ = rand.Read(b[:])
	prefix := "creatorapi-test:" + hex.EncodeToString(b[:]) + ":"
	return fx.Decorate(func(c compose.Config) compose.Config {
		c.RateLimitStore, c.RedisURL, c.RedisPrefix = "redis", url, prefix
		return c
	})
}

// UseRedisThrough counts rate limits in Redis as UseRedis does, but through a TCP proxy the
// test can cut, with a degraded instance probing Redis every probe.
func UseRedisThrough(t testing.TB, probe time.Duration) (*TCPProxy, fx.Option) {
	t.Helper()
	raw := serviceURL(t, RedisURLVar, "Redis", "redis://127.0.0.1:6379/0")
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", RedisURLVar, err)
	}
	proxy := NewTCPProxy(t, u.Host)
	u.Host = proxy.Addr
	var b [6]byte
	_, _ = rand.Read(b[:])
	prefix := "creatorapi-test:" + hex.EncodeToString(b[:]) + ":"
	return proxy, fx.Decorate(func(c compose.Config) compose.Config {
		c.RateLimitStore, c.RedisURL, c.RedisPrefix, c.RedisProbeInterval = "redis", u.String(), prefix, probe
		return c
	})
}
