package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// eachCountingStore runs fn on every counting store: memory (SQLite's default), the
// database (PostgreSQL's default) and Redis (on SQLite here: the store, not the database,
// is what counts).
func eachCountingStore(t *testing.T, fn func(t *testing.T, start func() *testenv.Env)) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		fn(t, func() *testenv.Env { return testenv.Start(t, dbURL) })
	})
	t.Run("redis", func(t *testing.T) {
		redis := testenv.UseRedis(t)
		fn(t, func() *testenv.Env { return testenv.Start(t, testenv.NewSQLiteURL(t), redis) })
	})
}
