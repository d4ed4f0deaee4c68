package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// RedisURLVar names the variable that enables the Redis runs.
const RedisURLVar = "CREATORAPI_TEST_REDIS_URL"

var warnRedisOnce sync.Once

// UseRedis counts rate limits in Redis under a namespace of this test's own, so that
// tests and runs never share counters. Pass the same option to every instance that must
// share the quota. Skipped loudly without CREATORAPI_TEST_REDIS_URL; a failure under CI.
func UseRedis(t testing.TB) fx.Option {
	url := os.Getenv(RedisURLVar)
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set under CI: the Redis suites must run", RedisURLVar)
		}
		warnRedisOnce.Do(func() {
			fmt.Fprintf(os.Stderr, "\n*** Redis suites SKIPPED: set %s (e.g. redis://127.0.0.1:6379/0) to run them ***\n\n", RedisURLVar)
		})
		t.Skipf("Redis SKIPPED: %s is not set", RedisURLVar)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	prefix := "creatorapi-test:" + hex.EncodeToString(b[:]) + ":"
	return fx.Decorate(func(c compose.Config) compose.Config {
		c.RateLimitStore, c.RedisURL, c.RedisPrefix = "redis", url, prefix
		return c
	})
}
