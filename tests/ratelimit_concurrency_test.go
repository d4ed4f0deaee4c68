package tests

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// burst sends n concurrent requests with key, spread over the apps in turn, and
// counts the 200s and 429s; anything else fails the test.
func burst(t *testing.T, envs []*testenv.Env, key string, n int) (ok, limited int) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		app := envs[i%len(envs)].Public.App
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest(http.MethodGet, coursesPath, nil)
			req.Header.Set("Authorization", "Bearer "+key)
			<-start
			resp, err := app.Test(req, -1)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Errorf("request: %v", err)
			case resp.StatusCode == http.StatusOK:
				ok++
			case resp.StatusCode == http.StatusTooManyRequests:
				limited++
			default:
				t.Errorf("status %d", resp.StatusCode)
			}
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
	close(start)
	wg.Wait()
	return ok, limited
}

// expectExactly60Of200 bursts 200 requests against a fresh key of 60 a minute, then
// checks at the next minute that the day counted exactly the 60 admitted.
func expectExactly60Of200(t *testing.T, envs []*testenv.Env) {
	t.Helper()
	ws := envs[0].CreateWorkspace(t, "Academy")
	_, key := envs[0].CreateKey(t, ws, "read:courses")
	ok, limited := burst(t, envs, key, 200)
	if ok != 60 || limited != 140 {
		t.Fatalf("200 concurrent requests against 60/min: %d admitted, %d refused; want exactly 60 and 140", ok, limited)
	}
	for _, e := range envs {
		e.Clock.Advance(time.Minute)
	}
	r := envs[len(envs)-1].API(key).Get(t, coursesPath).Expect(t, http.StatusOK)
	if got := rateOf(t, r); got.DailyRemaining != 1000-61 {
		t.Fatalf("daily remaining %d after 60 admitted and 1 more, want %d", got.DailyRemaining, 1000-61)
	}
}

func countersInDatabase(t *testing.T, env *testenv.Env) int {
	t.Helper()
	var n int
	if err := env.DB.Reader.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM rate_limit_counters`); err != nil {
		t.Fatalf("count rate_limit_counters: %v", err)
	}
	return n
}

func TestConcurrentRequestsAdmitExactlyTheLimit(t *testing.T) {
	testenv.Serial(t, "bursts 200 requests at up to three instances (a pool of 16 connections each): beside the parallel "+
		"tests PostgreSQL ran out of connections (max_connections 100; too many clients already, 500s)")
	t.Run("sqlite default store in memory", func(t *testing.T) {
		env := testenv.Start(t, testenv.NewSQLiteURL(t))
		expectExactly60Of200(t, []*testenv.Env{env})
		// The embedded default counts without writing to the database.
		if n := countersInDatabase(t, env); n != 0 {
			t.Fatalf("%d counter rows on SQLite with the default store, want none", n)
		}
	})
	t.Run("sqlite database store", func(t *testing.T) {
		env := testenv.Start(t, testenv.NewSQLiteURL(t), useRateLimitStore("database"))
		expectExactly60Of200(t, []*testenv.Env{env})
		if n := countersInDatabase(t, env); n != 1 {
			t.Fatalf("%d counter rows with the database store, want 1", n)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		env := testenv.Start(t, testenv.NewPostgresURL(t))
		expectExactly60Of200(t, []*testenv.Env{env})
		if n := countersInDatabase(t, env); n != 1 {
			t.Fatalf("%d counter rows on PostgreSQL, want 1 (shared counting)", n)
		}
	})
	t.Run("three instances on one postgres", func(t *testing.T) {
		url := testenv.NewPostgresURL(t)
		envs := []*testenv.Env{testenv.Start(t, url), testenv.Start(t, url), testenv.Start(t, url)}
		expectExactly60Of200(t, envs)
	})
	t.Run("redis", func(t *testing.T) {
		expectExactly60Of200(t, []*testenv.Env{testenv.Start(t, testenv.NewSQLiteURL(t), testenv.UseRedis(t))})
	})
	t.Run("three instances on one postgres counting in redis", func(t *testing.T) {
		redis := testenv.UseRedis(t)
		url := testenv.NewPostgresURL(t)
		envs := []*testenv.Env{testenv.Start(t, url, redis), testenv.Start(t, url, redis), testenv.Start(t, url, redis)}
		expectExactly60Of200(t, envs)
		if n := countersInDatabase(t, envs[0]); n != 0 {
			t.Fatalf("%d counter rows in PostgreSQL while counting in Redis, want none", n)
		}
	})
}

func useRateLimitStore(store string) fx.Option {
	return fx.Decorate(func(c compose.Config) compose.Config {
		c.RateLimitStore = store
		return c
	})
}
