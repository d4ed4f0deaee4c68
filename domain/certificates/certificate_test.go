package certificates

import (
	"testing"
	"time"
)

func TestIssueNeedsCompletion(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for _, c := range []*Completion{nil, {EnrollmentID: "enr_1", Status: "active"}, {EnrollmentID: "enr_1", Status: "revoked"}} {
		if _, err := Issue("crt_1", "org_1", "stu_1", "crs_1", c, now); err == nil {
			t.Fatalf("issued for %+v", c)
		}
	}
	crt, err := Issue("crt_1", "org_1", "stu_1", "crs_1", &Completion{EnrollmentID: "enr_1", Status: "completed"}, now)
	if err != nil || crt.EnrollmentID != "enr_1" || !crt.IssuedAt.Equal(now) {
		t.Fatalf("%+v %v", crt, err)
	}
}
