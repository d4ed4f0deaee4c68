package deprecations_test

import (
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/deprecations"
)

func TestDueThreshold(t *testing.T) {
	sunset := time.Date(2027, 9, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	cases := []struct {
		left time.Duration
		want int
		due  bool
	}{
		{91 * day, 0, false},
		{90 * day, 90, true},
		{31 * day, 90, true},
		{30 * day, 30, true},
		{20 * day, 30, true},
		{7 * day, 7, true},
		{time.Minute, 7, true},
		{0, 0, false},
		{-day, 0, false},
	}
	for _, c := range cases {
		got, due := deprecations.DueThreshold(sunset, sunset.Add(-c.left))
		if got != c.want || due != c.due {
			t.Errorf("%v before the sunset: got %d (%v), want %d (%v)", c.left, got, due, c.want, c.due)
		}
	}
}
