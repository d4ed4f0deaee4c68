package tests

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The fault suite's Redis part: redis-server of the test's own is killed (SIGKILL) and
// started again under load: no request fails, the instance reports degraded meanwhile and
// counts in Redis again once it is back. (The store is under test: SQLite here.)
func TestRedisCrashUnderLoadCostsNoRequest(t *testing.T) {
	redis := testenv.StartRedisServer(t)
	env := testenv.Start(t, testenv.NewSQLiteURL(t), redis.Use(50*time.Millisecond))
	ws := env.CreateWorkspace(t, "Academy")
	_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "read:courses")

	var served, failed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			api := env.API(key)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r := api.Get(t, coursesPath); r.Status != http.StatusOK {
					failed.Add(1)
					t.Errorf("status %d while Redis crashed: %s", r.Status, r.Body)
				} else {
					served.Add(1)
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	redis.Crash(t)
	time.Sleep(time.Second)
	expectReadyz(t, env, "degraded", "unreachable: counting rate limits per instance in memory")
	redis.Start(t)
	deadline := time.Now().Add(10 * time.Second)
	for readyzStatus(t, env) != "ready" {
		if time.Now().After(deadline) {
			t.Fatal("still degraded 10 s after Redis restarted")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	t.Logf("%d requests served across the Redis crash and restart, %d failed", served.Load(), failed.Load())
	if failed.Load() != 0 || served.Load() == 0 {
		t.Fatalf("served %d, failed %d", served.Load(), failed.Load())
	}
}
