package ratelimit

import (
	"testing"
)

func TestGrantShrinksBlocksToSingleRequestsAndWaitsInTheExactZone(t *testing.T) {
	q := Quota{PerMinute: 60, PerDay: 1000}
	type out struct {
		Kind GrantKind
		N    int
	}
	for _, tc := range []struct {
		name string
		c    Claimed
		want int
		out  out
	}{
		{"fresh window: the wanted block", Claimed{}, 8, out{Block, 8}},
		{"at most half of what is left before the exact zone", Claimed{Minute: 40}, 64, out{Block, 7}},
		{"day binds too", Claimed{Minute: 0, Day: 985}, 64, out{Block, 5}},
		{"one left before the zone: single", Claimed{Minute: 54}, 64, out{Single, 1}},
		{"exact zone, nobody holds a block: single", Claimed{Minute: 57}, 64, out{Single, 1}},
		{"exact zone while another instance holds a block: wait", Claimed{Minute: 57, MinuteLeased: 3}, 64, out{WaitForBlocks, 0}},
		{"entering the zone with blocks out: wait", Claimed{Minute: 55, MinuteLeased: 3}, 64, out{WaitForBlocks, 0}},
		{"below the zone with blocks out: single", Claimed{Minute: 53, MinuteLeased: 3}, 64, out{Single, 1}},
		{"full, blocks out: wait for them", Claimed{Minute: 60, MinuteLeased: 2}, 64, out{WaitForBlocks, 0}},
		{"full, no block out: refused", Claimed{Minute: 60}, 64, out{Refused, 0}},
		{"day full with no day block out: refused even if minute blocks are out", Claimed{Minute: 10, Day: 1000, MinuteLeased: 2}, 64, out{Refused, 0}},
		{"day in its exact zone with day blocks out: wait", Claimed{Minute: 10, Day: 997, DayLeased: 4}, 64, out{WaitForBlocks, 0}},
	} {
		kind, n := Grant(tc.c, q, tc.want)
		if got := (out{kind, n}); got != tc.out {
			t.Errorf("%s: Grant(%+v) = %+v, want %+v", tc.name, tc.c, got, tc.out)
		}
	}
}

// Whatever the interleaving, blocks never reach into the exact zone and never pass
// the limit: simulated claims of two instances that never return anything.
func TestGrantNeverPassesTheLimit(t *testing.T) {
	q := Quota{PerMinute: 30, PerDay: 1000}
	var c Claimed
	for range 200 {
		kind, n := Grant(Claimed{Minute: c.Minute, Day: c.Day}, q, 1<<20)
		switch kind {
		case Block:
			if c.Minute+n > q.PerMinute-ExactZone {
				t.Fatalf("block of %d at %d reaches into the exact zone", n, c.Minute)
			}
			c.Minute += n
			c.Day += n
		case Single:
			c.Minute++
			c.Day++
		}
		if c.Minute > q.PerMinute {
			t.Fatalf("claimed %d of %d", c.Minute, q.PerMinute)
		}
	}
	if c.Minute != q.PerMinute {
		t.Fatalf("claimed %d, want the whole %d", c.Minute, q.PerMinute)
	}
}
