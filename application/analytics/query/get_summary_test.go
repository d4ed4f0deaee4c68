package query

import (
	"testing"
	"time"
)

func TestRate(t *testing.T) {
	for _, c := range []struct {
		part, whole int64
		want        float64
	}{{0, 0, 0}, {1, 3, 0.3333}, {2, 3, 0.6667}, {1, 1, 1}, {1, 8, 0.125}, {1, 20000, 0.0001}, {1, 30000, 0}} {
		if got := Rate(c.part, c.whole); got != c.want {
			t.Errorf("Rate(%d, %d) = %v, want %v", c.part, c.whole, got, c.want)
		}
	}
}

func TestWindow(t *testing.T) {
	now := time.Date(2026, 11, 21, 23, 59, 0, 0, time.UTC)
	day := func(s string) time.Time { d, _ := time.Parse(dateLayout, s); return d }
	from, to, err := window("", "", now)
	if err != nil || !from.Equal(day("2026-10-23")) || !to.Equal(day("2026-11-21")) {
		t.Fatalf("default %v %v %v", from, to, err)
	}
	if _, _, err := window("2025-01-02", "2026-01-02", now); err != nil {
		t.Fatalf("366 days refused: %v", err)
	}
	for _, c := range [][2]string{{"2025-01-01", "2026-01-02"}, {"2026-11-22", ""}, {"2026-11-02", "2026-11-01"}, {"2026-02-30", ""}, {"", "20261101"}} {
		if _, _, err := window(c[0], c[1], now); err == nil {
			t.Errorf("window %v accepted", c)
		}
	}
}
