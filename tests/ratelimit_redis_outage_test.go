package tests

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Redis going away costs no request: under load, with Redis cut behind a proxy, every
// request is answered (no 5xx), the instance counts in memory and still holds each key's
// quota on its own, /metrics and /readyz say it is degraded (readyz still 200), and once
// Redis answers again shared counting resumes from the counts Redis kept: what was counted
// in memory during the outage is dropped (docs/rate-limits.md, "Redis away").
func TestRedisOutageCostsNoRequest(t *testing.T) {
	testenv.Alone(t, "Redis must answer within the client's 250 ms read timeout until the cut: beside the parallel phase it once did not, and the instance was degraded before the outage began")
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		proxy, redis := testenv.UseRedisThrough(t, 50*time.Millisecond)
		env := testenv.Start(t, dbURL, redis)
		ws := env.CreateWorkspace(t, "Academy")
		_, busy := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "read:courses")
		_, small := env.CreateKeyWithQuota(t, ws, 1000, 5, "read:courses")
		smallAPI := env.API(small)

		// Three of the small key's five counted in Redis before the outage.
		for range 3 {
			smallAPI.Get(t, coursesPath).Expect(t, http.StatusOK)
		}
		expectReadyz(t, env, "ready", "ok")

		var served, failed atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				api := env.API(busy)
				for {
					select {
					case <-stop:
						return
					default:
					}
					r := api.Get(t, coursesPath)
					if r.Status >= 500 || r.Status != http.StatusOK {
						failed.Add(1)
						t.Errorf("status %d during the Redis outage test: %s", r.Status, r.Body)
						continue
					}
					served.Add(1)
				}
			}()
		}
		time.Sleep(300 * time.Millisecond)
		before := served.Load()
		proxy.Cut()
		cutAt := time.Now()
		time.Sleep(1500 * time.Millisecond)
		during := served.Load() - before

		// Degraded: still ready, and saying so, on /readyz and /metrics.
		expectReadyz(t, env, "degraded", "unreachable: counting rate limits per instance in memory")
		metrics := string(env.Admin().Get(t, "/metrics").Expect(t, http.StatusOK).Body)
		for _, want := range []string{"creatorapi_ratelimit_degraded 1", "creatorapi_ratelimit_store_outages_total 1"} {
			if !strings.Contains(metrics, want) {
				t.Errorf("/metrics lacks %q during the outage", want)
			}
		}
		// The quota still holds on this instance: a fresh count in memory admits five, then 429.
		for i := 1; i <= 5; i++ {
			smallAPI.Get(t, coursesPath).Expect(t, http.StatusOK)
		}
		smallAPI.Get(t, coursesPath).ExpectError(t, http.StatusTooManyRequests, "rate_limited")

		proxy.Restore()
		deadline := time.Now().Add(10 * time.Second)
		for readyzStatus(t, env) != "ready" {
			if time.Now().After(deadline) {
				t.Fatal("still degraded 10 s after Redis came back")
			}
			time.Sleep(20 * time.Millisecond)
		}
		recovered := time.Since(cutAt)
		time.Sleep(200 * time.Millisecond)
		close(stop)
		wg.Wait()
		t.Logf("served %d requests before the cut (300 ms), %d during the 1.5 s cut, %d in all; %d failed; back to Redis %s after the cut (%s after restore)",
			before, during, served.Load(), failed.Load(), recovered.Round(time.Millisecond), (recovered - 1500*time.Millisecond).Round(time.Millisecond))
		if during == 0 {
			t.Fatal("no request served during the outage")
		}
		if failed.Load() != 0 {
			t.Fatalf("%d requests failed while Redis was away", failed.Load())
		}
		if !strings.Contains(string(env.Admin().Get(t, "/metrics").Body), "creatorapi_ratelimit_degraded 0") {
			t.Error("/metrics still says degraded after Redis came back")
		}
		// Shared counting resumed from Redis's three: two more, then 429.
		for range 2 {
			smallAPI.Get(t, coursesPath).Expect(t, http.StatusOK)
		}
		smallAPI.Get(t, coursesPath).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
	})
}

func readyzStatus(t *testing.T, env *testenv.Env) string {
	var body struct {
		Status string `json:"status"`
	}
	env.API("").Get(t, "/readyz").Expect(t, http.StatusOK).Decode(t, &body)
	return body.Status
}

func expectReadyz(t *testing.T, env *testenv.Env, status, redis string) {
	t.Helper()
	var body struct {
		Status   string            `json:"status"`
		Degraded []string          `json:"degraded"`
		Checks   map[string]string `json:"checks"`
	}
	env.API("").Get(t, "/readyz").Expect(t, http.StatusOK).Decode(t, &body)
	if body.Status != status || body.Checks["redis"] != redis {
		t.Fatalf("/readyz %+v, want status %q and redis %q", body, status, redis)
	}
	if status == "degraded" && (len(body.Degraded) != 1 || body.Degraded[0] != "redis") {
		t.Fatalf("/readyz degraded %v, want [redis]", body.Degraded)
	}
}

// A Redis that stops answering without closing connections (a partition) holds a request
// no longer than the client's short timeouts: the first requests after it goes silent wait
// for the 250 ms read timeout, then the instance counts in memory and nothing waits. (The
// store, not the database, is under test: SQLite here.)
func TestSilentRedisHoldsNoRequestLong(t *testing.T) {
	proxy, redis := testenv.UseRedisThrough(t, 50*time.Millisecond)
	env := testenv.Start(t, testenv.NewSQLiteURL(t), redis)
	ws := env.CreateWorkspace(t, "Academy")
	_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "read:courses")
	api := env.API(key)
	api.Get(t, coursesPath).Expect(t, http.StatusOK)

	proxy.Blackhole()
	var slowest time.Duration
	n := 0
	for end := time.Now().Add(time.Second); time.Now().Before(end); n++ {
		began := time.Now()
		api.Get(t, coursesPath).Expect(t, http.StatusOK)
		slowest = max(slowest, time.Since(began))
	}
	t.Logf("%d requests in 1 s with Redis silent; the slowest took %s", n, slowest.Round(time.Millisecond))
	if slowest > time.Second {
		t.Fatalf("a request waited %s on a silent Redis", slowest)
	}
	expectReadyz(t, env, "degraded", "unreachable: counting rate limits per instance in memory")

	proxy.Restore()
	deadline := time.Now().Add(10 * time.Second)
	for readyzStatus(t, env) != "ready" {
		if time.Now().After(deadline) {
			t.Fatal("still degraded 10 s after Redis answered again")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
