package tests

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// twoInstancesCountingInTheDatabase starts two instances on one database (a fresh
// SQLite file or PostgreSQL database), both counting in it.
func twoInstancesCountingInTheDatabase(t *testing.T, dbURL string) (a, b *testenv.Env) {
	t.Helper()
	return testenv.Start(t, dbURL, useRateLimitStore("database")), testenv.Start(t, dbURL, useRateLimitStore("database"))
}

// A key of 30 a minute used alternately through two instances gets exactly 30, and
// every answer's X-RateLimit-Remaining is never lower than the truth and exact when
// fewer than 5 remain (ratelimit.ExactZone): counting in the database (both databases)
// and in Redis (two instances on one PostgreSQL sharing one Redis).
func TestLeasedBlocksAdmitExactlyTheLimitAcrossInstances(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		a, b := twoInstancesCountingInTheDatabase(t, dbURL)
		expectExactly30Alternating(t, a, b)
	})
	t.Run("redis", func(t *testing.T) {
		redis, url := testenv.UseRedis(t), testenv.NewPostgresURL(t)
		expectExactly30Alternating(t, testenv.Start(t, url, redis), testenv.Start(t, url, redis))
	})
}

func expectExactly30Alternating(t *testing.T, a, b *testenv.Env) {
	t.Helper()
	ws := a.CreateWorkspace(t, "Academy")
	_, key := a.CreateKeyWithQuota(t, ws, 30, 1000, "read:courses")
	admitted := 0
	for i := range 40 {
		env := []*testenv.Env{a, b}[i%2]
		r := env.API(key).Get(t, coursesPath)
		got := rateOf(t, r)
		countAdmission(t, i, r.Status, &admitted)
		truth := int64(30 - admitted)
		if got.Remaining < truth || (truth < 5 && got.Remaining != truth) {
			t.Fatalf("request %d (instance %d): X-RateLimit-Remaining %d, truth %d", i+1, i%2, got.Remaining, truth)
		}
		if dayTruth := int64(1000 - admitted); got.DailyRemaining < dayTruth {
			t.Fatalf("request %d: X-RateLimit-Daily-Remaining %d below the truth %d", i+1, got.DailyRemaining, dayTruth)
		}
	}
	if admitted != 30 {
		t.Fatalf("admitted %d of 40 alternating requests, want exactly 30", admitted)
	}
}

// A client that leaves an instance holding a block for another gets the whole quota
// there: the block comes back when it expires, and the stop of an instance hands its
// block back at once.
func TestUnusedBlocksComeBack(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		a, b := twoInstancesCountingInTheDatabase(t, dbURL)
		ws := a.CreateWorkspace(t, "Academy")
		keyID, key := a.CreateKeyWithQuota(t, ws, 30, 1000, "read:courses")

		a.API(key).Get(t, coursesPath).Expect(t, http.StatusOK) // a leases a block, uses one
		started := time.Now()
		for i := range 29 {
			r := b.API(key).Get(t, coursesPath)
			if r.Status != http.StatusOK {
				t.Fatalf("request %d through the other instance: status %d after 1 through the first, want 200 up to 30", i+2, r.Status)
			}
			if want := int64(28 - i); want < 5 && rateOf(t, r).Remaining != want {
				t.Fatalf("request %d: remaining %d, want %d", i+2, rateOf(t, r).Remaining, want)
			}
		}
		b.API(key).Get(t, coursesPath).Expect(t, http.StatusTooManyRequests)
		if waited := time.Since(started); waited > 5*time.Second {
			t.Fatalf("29 requests took %s waiting for the other instance's block", waited)
		}

		// Next minute: a leases again, stops, and b gets the other 29 at once.
		a.Clock.Advance(time.Minute)
		b.Clock.Advance(time.Minute)
		a.API(key).Get(t, coursesPath).Expect(t, http.StatusOK)
		a.Stop(t)
		var row struct{ MinuteCount, MinuteLeased int }
		if err := b.DB.Reader.GetContext(context.Background(), &row,
			b.DB.Rebind(`SELECT minute_count, minute_leased FROM rate_limit_counters WHERE subject = ?`), "key:"+keyID); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(struct{ MinuteCount, MinuteLeased int }{1, 0}, row); diff != "" {
			t.Fatalf("counter after the leasing instance stopped (-want +got):\n%s", diff)
		}
		for i := range 29 {
			if r := b.API(key).Get(t, coursesPath); r.Status != http.StatusOK {
				t.Fatalf("after the first instance stopped: request %d status %d", i+2, r.Status)
			}
		}
		b.API(key).Get(t, coursesPath).Expect(t, http.StatusTooManyRequests)
	})
}

// countAdmission counts request i's answer against a limit of 30 used up in order: an
// admission, or a refusal only once all 30 were admitted.
func countAdmission(t *testing.T, i, status int, admitted *int) {
	t.Helper()
	switch status {
	case http.StatusOK:
		*admitted++
	case http.StatusTooManyRequests:
		if *admitted < 30 {
			t.Fatalf("request %d refused after %d admitted of 30", i+1, *admitted)
		}
	default:
		t.Fatalf("request %d: status %d", i+1, status)
	}
}
