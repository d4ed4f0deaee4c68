package livesessions

import (
	"testing"
	"time"
)

func TestLifeCycle(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	s, err := Schedule("lvs_1", "org_1", "crs_1", "  Q&A  ", now)
	if err != nil || s.Title != "Q&A" || s.Status != Scheduled {
		t.Fatalf("%+v %v", s, err)
	}
	if _, err := s.Record("rec_1", 60, now); err == nil {
		t.Fatal("recorded a scheduled session")
	}
	if s.End(now) == nil {
		t.Fatal("ended a scheduled session")
	}
	if err := s.Start(now); err != nil || s.Status != Live || s.Start(now) == nil {
		t.Fatalf("start: %v", err)
	}
	if err := s.End(now); err != nil || s.Status != Ended || s.End(now) == nil || s.Start(now) == nil {
		t.Fatalf("end: %v", err)
	}
	for _, d := range []int{0, -1, MaxRecordingSeconds + 1} {
		if _, err := s.Record("rec_1", d, now); err == nil {
			t.Fatalf("recorded %d seconds", d)
		}
	}
	r, err := s.Record("rec_1", 90, now)
	if err != nil || r.LiveSessionID != "lvs_1" || r.CourseID != "crs_1" {
		t.Fatalf("%+v %v", r, err)
	}
}
