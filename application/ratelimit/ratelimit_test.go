package ratelimit

import (
	"testing"
	"time"
)

func TestClientSubject(t *testing.T) {
	for ip, want := range map[string]string{
		"203.0.113.7":             "ip:203.0.113.7",
		"::ffff:203.0.113.7":      "ip:203.0.113.7",
		"2001:db8:1:2:3:4:5:6":    "ip:2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:0:0:1": "ip:2001:db8:1:2::/64",
		"not an address":          "ip:not an address",
	} {
		if got := clientSubject(ip); got != want {
			t.Errorf("clientSubject(%q) = %q, want %q", ip, got, want)
		}
	}
}

func TestDecideRefusal(t *testing.T) {
	now := time.Date(2026, 11, 21, 23, 59, 30, 0, time.UTC)
	w := WindowsAt(now)
	q := Quota{PerMinute: 10, PerDay: 100}
	minuteFull := decide(now, w, q, Usage{Minute: 10, Day: 50}, false)
	if minuteFull.RetryAfter != 30 || minuteFull.Minute.Remaining != 0 || minuteFull.Day.Remaining != 50 {
		t.Fatalf("minute exhausted: %+v", minuteFull)
	}
	dayFull := decide(now, w, q, Usage{Minute: 3, Day: 100}, false)
	if !dayFull.RetryAt.Equal(w.DayReset()) || dayFull.RetryAfter != 30 || dayFull.Minute.Remaining != 7 {
		t.Fatalf("day exhausted in the day's last minute: %+v", dayFull)
	}
	admitted := decide(now, w, q, Usage{Minute: 1, Day: 1}, true)
	if admitted.RetryAfter != 0 || admitted.Minute.Remaining != 9 || admitted.Day.Remaining != 99 {
		t.Fatalf("admitted: %+v", admitted)
	}
}
