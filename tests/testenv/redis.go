package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"testing"

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
