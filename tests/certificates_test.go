package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

type certificateJSON struct {
	ID           string `json:"id"`
	StudentID    string `json:"studentId"`
	CourseID     string `json:"courseId"`
	EnrollmentID string `json:"enrollmentId"`
	IssuedAt     string `json:"issuedAt"`
}

func TestCertificateNeedsACompletedEnrollmentAndIsIdempotent(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		other := env.CreateWorkspace(t, "Other")
		course := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		stu := env.CreateStudent(t, ws, "ada@example.com")
		otherStu := env.CreateStudent(t, other, "bob@example.com")
		admin := env.Admin()
		path := fmt.Sprintf("/internal/v1/workspaces/%s/certificates", ws)
		issue := func(student, c string) testenv.Response {
			return admin.Post(t, path, map[string]string{"studentId": student, "courseId": c})
		}

		mustNameParam(t, issue(stu, course), "courseId")         // not enrolled
		mustNameParam(t, issue("stu_nope", course), "studentId") // unknown student
		mustNameParam(t, issue(otherStu, course), "studentId")   // another workspace's student
		mustNameParam(t, admin.Post(t, path, map[string]string{"studentId": stu}), "courseId")

		o := env.PlaceOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: course, Amount: 100})
		mustNameParam(t, issue(stu, course), "courseId") // enrolled, not completed

		env.Clock.Set(testenv.Epoch.Add(24 * time.Hour))
		env.CompleteCourse(t, ws, stu, course)
		var c certificateJSON
		issue(stu, course).Expect(t, http.StatusCreated).Decode(t, &c)
		if !strings.HasPrefix(c.ID, "crt_") {
			t.Fatalf("certificate id %q", c.ID)
		}
		want := certificateJSON{ID: c.ID, StudentID: stu, CourseID: course, EnrollmentID: o.Entitlements[0].EnrollmentID, IssuedAt: "2026-11-22T10:00:00Z"}
		if diff := cmp.Diff(want, c); diff != "" {
			t.Fatalf("certificate (-want +got):\n%s", diff)
		}

		// Again: the same certificate, 200, no second event.
		env.Clock.Set(testenv.Epoch.Add(48 * time.Hour))
		var again certificateJSON
		issue(stu, course).Expect(t, http.StatusOK).Decode(t, &again)
		if diff := cmp.Diff(c, again); diff != "" {
			t.Fatalf("second issue (-want +got):\n%s", diff)
		}
		evs := env.OutboxEventsOfType(t, events.CertificateIssued)
		if len(evs) != 1 || evs[0].WorkspaceID != ws {
			t.Fatalf("certificate.issued events %+v", evs)
		}
		var data certificateJSON
		if err := json.Unmarshal(evs[0].Data, &data); err != nil || data != c {
			t.Fatalf("certificate.issued data %s, want %+v", evs[0].Data, c)
		}
	})
}
