package enrollments

import (
	"testing"
	"time"
)

func TestPercentRoundsDown(t *testing.T) {
	for _, c := range []struct{ done, total, want int }{
		{0, 0, 0}, {3, 0, 0}, {0, 3, 0}, {1, 3, 33}, {2, 3, 66}, {3, 3, 100}, {1, 7, 14}, {6, 7, 85}, {199, 200, 99}, {5, 3, 100},
	} {
		if got := Percent(c.done, c.total); got != c.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", c.done, c.total, got, c.want)
		}
	}
}

func TestLifeCycle(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	if _, err := New("enr_1", "org_1", "stu_1", "crs_1", "gift", t0); err == nil {
		t.Fatal("unknown source accepted")
	}
	e, err := New("enr_1", "org_1", "stu_1", "crs_1", "api", t0)
	if err != nil || e.Status != Active {
		t.Fatalf("New: %+v, %v", e, err)
	}
	if e.Reactivate(t0) {
		t.Fatal("an active enrollment was reactivated")
	}
	if e.RecordLesson(1, 2, t0) || e.Status != Active {
		t.Fatal("completed before the last lesson")
	}
	if !e.RecordLesson(2, 2, t0.Add(time.Minute)) || e.Status != Completed || e.CompletedAt == nil {
		t.Fatalf("not completed on the last lesson: %+v", e)
	}
	if e.RecordLesson(2, 2, t0.Add(2*time.Minute)) {
		t.Fatal("completed twice")
	}
	if !e.Revoke(t0.Add(time.Hour)) || e.Status != Revoked || e.CanProgress() == nil {
		t.Fatalf("revoke: %+v", e)
	}
	if e.Revoke(t0.Add(2 * time.Hour)) {
		t.Fatal("revoked twice")
	}
	if !e.Reactivate(t0.Add(3*time.Hour)) || e.Status != Completed || e.RevokedAt != nil {
		t.Fatalf("a completed enrollment should come back completed: %+v", e)
	}
}
