package config

import "testing"

// "auto" picks Redis when a Redis URL is set, else the database on PostgreSQL, else
// memory; an explicit store is kept whatever else is set.
func TestRateLimitStoreForResolvesAuto(t *testing.T) {
	for _, c := range []struct {
		store, redis string
		postgres     bool
		want         string
	}{
		{"auto", "redis://127.0.0.1:6379/0", false, "redis"},
		{"auto", "redis://127.0.0.1:6379/0", true, "redis"},
		{"auto", "", true, "database"},
		{"auto", "", false, "memory"},
		{"memory", "redis://127.0.0.1:6379/0", true, "memory"},
		{"database", "", true, "database"},
	} {
		cfg := Config{RateLimitStore: c.store, RedisURL: c.redis}
		if got := cfg.RateLimitStoreFor(c.postgres); got != c.want {
			t.Errorf("store %q, redis %q, postgres %v: %q; want %q", c.store, c.redis, c.postgres, got, c.want)
		}
	}
}
