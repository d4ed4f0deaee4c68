package tests

import (
	"net/http"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

const coursesPath = "/api/v1/courses"

func TestMinuteWindowResetsAtSecondZero(t *testing.T) {
	eachCountingStore(t, func(t *testing.T, start func() *testenv.Env) {
		env := start()
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 3, 100, "read:courses")
		api := env.API(key)
		day := at(0, 0, 0).AddDate(0, 0, 1)

		env.Clock.Set(at(10, 0, 30))
		for i := 1; i <= 3; i++ {
			r := api.Get(t, coursesPath).Expect(t, http.StatusOK)
			expectRate(t, r, rate{3, int64(3 - i), unix(at(10, 1, 0)), 100, int64(100 - i), unix(day)})
			noRetryAfter(t, r)
		}
		r := api.Get(t, coursesPath)
		if wait := retryAfter(t, r); wait != 30 {
			t.Fatalf("Retry-After %d at 10:00:30, want 30", wait)
		}
		expectRate(t, r, rate{3, 0, unix(at(10, 1, 0)), 100, 97, unix(day)})

		// Still the same window a microsecond before the minute turns.
		env.Clock.Set(at(10, 1, 0).Add(-time.Microsecond))
		if wait := retryAfter(t, api.Get(t, coursesPath)); wait != 1 {
			t.Fatalf("Retry-After %d just before 10:01:00, want 1", wait)
		}
		// At second 0 the minute bucket is full again; the day keeps counting.
		env.Clock.Set(at(10, 1, 0))
		r = api.Get(t, coursesPath).Expect(t, http.StatusOK)
		expectRate(t, r, rate{3, 2, unix(at(10, 2, 0)), 100, 96, unix(day)})
	})
}

func TestDayWindowResetsAtMidnightUTC(t *testing.T) {
	eachCountingStore(t, func(t *testing.T, start func() *testenv.Env) {
		env := start()
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 100, 3, "read:courses")
		api := env.API(key)
		midnight := at(0, 0, 0).AddDate(0, 0, 1)

		env.Clock.Set(at(23, 58, 10))
		for i := 1; i <= 3; i++ {
			api.Get(t, coursesPath).Expect(t, http.StatusOK)
		}
		// The day is exhausted, the minute is not: wait for midnight, not for 23:59.
		r := api.Get(t, coursesPath)
		if wait := retryAfter(t, r); wait != 110 {
			t.Fatalf("Retry-After %d at 23:58:10 with the day exhausted, want 110 (to 00:00)", wait)
		}
		expectRate(t, r, rate{100, 97, unix(at(23, 59, 0)), 3, 0, unix(midnight)})

		env.Clock.Set(at(23, 59, 59))
		if wait := retryAfter(t, api.Get(t, coursesPath)); wait != 1 {
			t.Fatalf("Retry-After %d at 23:59:59, want 1", wait)
		}
		env.Clock.Set(midnight)
		r = api.Get(t, coursesPath).Expect(t, http.StatusOK)
		expectRate(t, r, rate{100, 99, unix(midnight.Add(time.Minute)), 3, 2, unix(midnight.AddDate(0, 0, 1))})
	})
}

func TestRetryAfterCountsToTheReset(t *testing.T) {
	eachCountingStore(t, func(t *testing.T, start func() *testenv.Env) {
		env := start()
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 2, 1000, "read:courses")
		api := env.API(key)

		env.Clock.Set(at(10, 5, 1))
		api.Get(t, coursesPath).Expect(t, http.StatusOK)
		api.Get(t, coursesPath).Expect(t, http.StatusOK)
		for _, tc := range []struct {
			now  time.Time
			want int
		}{
			{at(10, 5, 1), 59}, // 59 s before the reset
			{at(10, 5, 1).Add(500 * time.Millisecond), 59}, // 58.5 s rounds up: waiting 58 would be too early
			{at(10, 5, 59), 1}, // 1 s before the reset
		} {
			env.Clock.Set(tc.now)
			r := api.Get(t, coursesPath)
			if wait := retryAfter(t, r); wait != tc.want {
				t.Fatalf("at %s Retry-After %d, want %d", tc.now.Format(time.TimeOnly), wait, tc.want)
			}
			if got := rateOf(t, r); got.Remaining != 0 || got.Reset != unix(at(10, 6, 0)) {
				t.Fatalf("at %s headers %+v", tc.now.Format(time.TimeOnly), got)
			}
		}
	})
}

func TestBothBucketsExhaustedWaitForTheLaterReset(t *testing.T) {
	eachCountingStore(t, func(t *testing.T, start func() *testenv.Env) {
		env := start()
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 2, 2, "read:courses")
		api := env.API(key)

		env.Clock.Set(at(12, 0, 0))
		api.Get(t, coursesPath).Expect(t, http.StatusOK)
		api.Get(t, coursesPath).Expect(t, http.StatusOK)
		r := api.Get(t, coursesPath)
		// The minute resets in 60 s, but the day only at midnight: 12 h.
		if wait := retryAfter(t, r); wait != 12*3600 {
			t.Fatalf("Retry-After %d with both buckets exhausted, want %d (to 00:00 UTC)", wait, 12*3600)
		}
		if got := rateOf(t, r); got.Remaining != 0 || got.DailyRemaining != 0 {
			t.Fatalf("headers %+v, want both buckets at 0", got)
		}
		// The next minute does not help: the day is still exhausted.
		env.Clock.Set(at(12, 1, 0))
		if wait := retryAfter(t, api.Get(t, coursesPath)); wait != 12*3600-60 {
			t.Fatalf("Retry-After %d in the next minute, want %d", wait, 12*3600-60)
		}
	})
}

func TestPerKeyQuotaOverride(t *testing.T) {
	eachCountingStore(t, func(t *testing.T, start func() *testenv.Env) {
		env := start()
		ws := env.CreateWorkspace(t, "Academy")
		_, enterprise := env.CreateKeyWithQuota(t, ws, 5, 50000, "read:courses")
		_, standard := env.CreateKey(t, ws, "read:courses")

		env.Clock.Set(at(10, 0, 0))
		day := unix(at(0, 0, 0).AddDate(0, 0, 1))
		expectRate(t, env.API(standard).Get(t, coursesPath).Expect(t, http.StatusOK), rate{60, 59, unix(at(10, 1, 0)), 1000, 999, day})
		for i := 1; i <= 5; i++ {
			r := env.API(enterprise).Get(t, coursesPath).Expect(t, http.StatusOK)
			expectRate(t, r, rate{5, int64(5 - i), unix(at(10, 1, 0)), 50000, int64(50000 - i), day})
		}
		retryAfter(t, env.API(enterprise).Get(t, coursesPath))
		// Buckets are per key: the standard key is untouched by the other's exhaustion.
		expectRate(t, env.API(standard).Get(t, coursesPath).Expect(t, http.StatusOK), rate{60, 58, unix(at(10, 1, 0)), 1000, 998, day})
	})
}

func TestRefusedRequestsConsumeNothing(t *testing.T) {
	eachCountingStore(t, func(t *testing.T, start func() *testenv.Env) {
		env := start()
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 2, 5, "read:courses")
		api := env.API(key)

		env.Clock.Set(at(10, 0, 0))
		api.Get(t, coursesPath).Expect(t, http.StatusOK)
		api.Get(t, coursesPath).Expect(t, http.StatusOK)
		for i := 0; i < 10; i++ {
			r := api.Get(t, coursesPath)
			retryAfter(t, r)
			if got := rateOf(t, r); got.DailyRemaining != 3 {
				t.Fatalf("refusal %d: daily remaining %d, want 3: a 429 must not count", i+1, got.DailyRemaining)
			}
		}
		// Had the ten refusals counted, the day (5) would be exhausted now.
		env.Clock.Set(at(10, 1, 0))
		r := api.Get(t, coursesPath).Expect(t, http.StatusOK)
		if got := rateOf(t, r); got.Remaining != 1 || got.DailyRemaining != 2 {
			t.Fatalf("after the refusals %+v, want minute 1 and day 2 remaining", got)
		}
	})
}
