package tests

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

type enrollmentView struct {
	ID          string     `json:"id"`
	StudentID   string     `json:"studentId"`
	CourseID    string     `json:"courseId"`
	Status      string     `json:"status"`
	Source      string     `json:"source"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt"`
	CompletedAt *time.Time `json:"completedAt"`
}

func enrollmentsPath(ws string) string {
	return fmt.Sprintf("/internal/v1/workspaces/%s/enrollments", ws)
}

func TestEnrollmentCreateShapeAndIdempotency(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreatePublishedCourse(t, ws, "Analytical Engines")

		env.Clock.Advance(time.Minute)
		resp := api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).Expect(t, http.StatusCreated)
		var e enrollmentView
		resp.Decode(t, &e)
		at := testenv.Epoch.Add(time.Minute)
		if !strings.HasPrefix(e.ID, "enr_") {
			t.Fatalf("enrollment id %q", e.ID)
		}
		if diff := cmp.Diff(enrollmentView{ID: e.ID, StudentID: student, CourseID: course, Status: "active", Source: "api", CreatedAt: at}, e); diff != "" {
			t.Fatalf("enrollment (-want +got):\n%s", diff)
		}
		raw := resp.JSON(t)
		for _, field := range []string{"id", "studentId", "courseId", "status", "source", "createdAt", "revokedAt", "completedAt"} {
			if _, ok := raw[field]; !ok {
				t.Fatalf("field %s missing: %s", field, resp.Body)
			}
		}

		env.Clock.Advance(time.Minute)
		var again enrollmentView
		api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).Expect(t, http.StatusOK).Decode(t, &again)
		if !reflect.DeepEqual(again, e) {
			t.Fatalf("repeat %+v, want the existing %+v", again, e)
		}
		evs := env.OutboxEventsOfType(t, events.EnrollmentCreated)
		if diff := cmp.Diff([]string{ws}, workspacesOf(evs)); diff != "" {
			t.Fatalf("enrollment.created events' workspaces (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(e, decodeData[enrollmentView](t, evs[0])); diff != "" {
			t.Fatalf("enrollment.created data (-want +got):\n%s", diff)
		}

		// The student embeds it, with progress, and its updatedAt moved.
		var list studentList
		api.Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
		s := list.Data[0]
		want := studentEnrollmentJSON{ID: e.ID, CourseID: course, Status: "active", CreatedAt: at, Progress: progressJSON{0, 2, 0}}
		if len(s.Enrollments) != 1 || !reflect.DeepEqual(s.Enrollments[0], want) || !s.UpdatedAt.Equal(at) {
			t.Fatalf("student %+v, want enrollment %+v and updatedAt %s", s, want, at)
		}

		// Operators enroll with source operator.
		other := env.CreateStudent(t, ws, "bob@example.com")
		var byOperator enrollmentView
		env.Admin().Post(t, enrollmentsPath(ws), map[string]string{"studentId": other, "courseId": course}).Expect(t, http.StatusCreated).Decode(t, &byOperator)
		if byOperator.Source != "operator" {
			t.Fatalf("operator enrollment %+v", byOperator)
		}
		env.Admin().Get(t, enrollmentsPath(ws)+"/"+byOperator.ID).Expect(t, http.StatusOK)
	})
}

func TestEnrollmentConcurrentIdenticalRequests(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreatePublishedCourse(t, ws, "Race Conditions")

		wantOneCreated(t, 50, func(int) testenv.Response {
			return api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course})
		})
		var rows int
		if err := env.DB.Reader.GetContext(context.Background(), &rows, env.DB.Reader.Rebind(
			`SELECT COUNT(*) FROM enrollments WHERE workspace_id = ? AND student_id = ? AND course_id = ?`), ws, student, course); err != nil {
			t.Fatal(err)
		}
		if rows != 1 {
			t.Fatalf("%d enrollment rows, want 1", rows)
		}
		if evs := env.OutboxEventsOfType(t, events.EnrollmentCreated); len(evs) != 1 {
			t.Fatalf("%d enrollment.created events, want 1", len(evs))
		}
	})
}

func TestEnrollmentValidation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		key := env.LearningKey(t, ws)
		api := env.API(key)
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreatePublishedCourse(t, ws, "Published")
		draft := env.CreateCourse(t, ws, "Draft")
		archived := env.CreatePublishedCourse(t, ws, "Archived")
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/archive", ws, archived), nil).Expect(t, http.StatusOK)

		for _, c := range []struct {
			name  string
			body  any
			param string
		}{
			{"missing studentId", map[string]string{"courseId": course}, "studentId"},
			{"missing courseId", map[string]string{"studentId": student}, "courseId"},
			{"empty studentId", map[string]string{"studentId": "", "courseId": course}, "studentId"},
			{"unknown field", map[string]string{"studentId": student, "courseId": course, "source": "order"}, "source"},
			{"wrong type", `{"studentId":7,"courseId":"x"}`, "studentId"},
			{"malformed JSON", `{"studentId":`, "body"},
			{"empty body", "", "body"},
			{"unknown student", map[string]string{"studentId": "stu_missing", "courseId": course}, "studentId"},
			{"unknown course", map[string]string{"studentId": student, "courseId": "crs_missing"}, "courseId"},
			{"draft course", map[string]string{"studentId": student, "courseId": draft}, "courseId"},
			{"archived course", map[string]string{"studentId": student, "courseId": archived}, "courseId"},
			{"too long id", map[string]string{"studentId": strings.Repeat("s", 101), "courseId": course}, "studentId"},
		} {
			t.Run(c.name, func(t *testing.T) {
				expectInvalid(t, api.Post(t, "/api/v1/enrollments", c.body), c.param)
			})
		}
		huge := `{"studentId":"` + strings.Repeat("s", 1<<20) + `","courseId":"x"}`
		expectInvalid(t, sendOverSocket(t, env.Public.App, http.MethodPost, "/api/v1/enrollments", key, huge), "body")
		expectInvalid(t, api.Post(t, "/api/v1/enrollments?force=true", map[string]string{"studentId": student, "courseId": course}), "force")

		_, noScope := env.CreateKey(t, ws, "read:students", "write:students")
		env.API(noScope).Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).
			ExpectError(t, http.StatusForbidden, "forbidden")
		if evs := env.OutboxEventsOfType(t, events.EnrollmentCreated); len(evs) != 0 {
			t.Fatalf("failed requests emitted %d enrollment.created", len(evs))
		}
	})
}

func TestEnrollmentTenantIsolation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		a := env.CreateWorkspace(t, "A")
		b := env.CreateWorkspace(t, "B")
		apiA := env.API(env.LearningKey(t, a))
		apiB := env.API(env.LearningKey(t, b))
		studentA := env.CreateStudent(t, a, "a@example.com")
		courseA := env.CreatePublishedCourse(t, a, "A course")
		studentB := env.CreateStudent(t, b, "b@example.com")
		courseB := env.CreatePublishedCourse(t, b, "B course")

		// References in the body resolve only in the key's workspace.
		expectInvalid(t, apiB.Post(t, "/api/v1/enrollments", map[string]string{"studentId": studentA, "courseId": courseB}), "studentId")
		expectInvalid(t, apiB.Post(t, "/api/v1/enrollments", map[string]string{"studentId": studentB, "courseId": courseA}), "courseId")
		expectInvalid(t, apiA.Post(t, "/api/v1/enrollments", map[string]string{"studentId": studentA, "courseId": courseB}), "courseId")
		expectInvalid(t, env.Admin().Post(t, enrollmentsPath(b), map[string]string{"studentId": studentA, "courseId": courseB}), "studentId")

		var e enrollmentView
		apiA.Post(t, "/api/v1/enrollments", map[string]string{"studentId": studentA, "courseId": courseA}).Expect(t, http.StatusCreated).Decode(t, &e)
		env.Admin().Get(t, enrollmentsPath(b)+"/"+e.ID).ExpectError(t, http.StatusNotFound, "not_found")
		env.RevokeEnrollment(t, b, e.ID).ExpectError(t, http.StatusNotFound, "not_found")
		var list studentList
		apiB.Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 1 || len(list.Data[0].Enrollments) != 0 {
			t.Fatalf("B's list %+v", list.Data)
		}
		if evs := env.OutboxEventsOfType(t, events.EnrollmentRevoked); len(evs) != 0 {
			t.Fatalf("cross-workspace revoke emitted %+v", evs)
		}
	})
}

func TestEnrollmentRevokeAndReactivate(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreatePublishedCourse(t, ws, "Course")
		var e enrollmentView
		api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).Expect(t, http.StatusCreated).Decode(t, &e)

		env.Clock.Advance(time.Hour)
		revokedAt := testenv.Epoch.Add(time.Hour)
		var revoked enrollmentView
		env.RevokeEnrollment(t, ws, e.ID).Expect(t, http.StatusOK).Decode(t, &revoked)
		wantRevoked := e
		wantRevoked.Status, wantRevoked.RevokedAt = "revoked", &revokedAt
		if diff := cmp.Diff(wantRevoked, revoked); diff != "" {
			t.Fatalf("revoked (-want +got):\n%s", diff)
		}
		evs := env.OutboxEventsOfType(t, events.EnrollmentRevoked)
		if diff := cmp.Diff([]string{ws}, workspacesOf(evs)); diff != "" {
			t.Fatalf("enrollment.revoked events' workspaces (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(revoked, decodeData[enrollmentView](t, evs[0])); diff != "" {
			t.Fatalf("enrollment.revoked data (-want +got):\n%s", diff)
		}
		// Revoking again changes nothing and emits nothing.
		env.Clock.Advance(time.Minute)
		var twice enrollmentView
		env.RevokeEnrollment(t, ws, e.ID).Expect(t, http.StatusOK).Decode(t, &twice)
		if !reflect.DeepEqual(twice, revoked) || len(env.OutboxEventsOfType(t, events.EnrollmentRevoked)) != 1 {
			t.Fatalf("second revoke %+v", twice)
		}
		env.RevokeEnrollment(t, ws, "enr_missing").ExpectError(t, http.StatusNotFound, "not_found")

		var list studentList
		api.Get(t, "/api/v1/students").Decode(t, &list)
		if got := list.Data[0].Enrollments[0]; got.Status != "revoked" || got.RevokedAt == nil || !list.Data[0].UpdatedAt.Equal(revokedAt) {
			t.Fatalf("student after revoke %+v", list.Data[0])
		}

		// Enrolling again reactivates the same enrollment: 200, and enrollment.created again.
		env.Clock.Advance(time.Minute)
		var back enrollmentView
		api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).Expect(t, http.StatusOK).Decode(t, &back)
		wantBack := e
		wantBack.Status, wantBack.RevokedAt, wantBack.Source = "active", nil, "api"
		if diff := cmp.Diff(wantBack, back); diff != "" {
			t.Fatalf("reactivated (-want +got):\n%s", diff)
		}
		created := env.OutboxEventsOfType(t, events.EnrollmentCreated)
		if len(created) != 2 || !reflect.DeepEqual(decodeData[enrollmentView](t, created[1]), back) {
			t.Fatalf("enrollment.created events %+v, want a second one for the reactivation", created)
		}
		api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).Expect(t, http.StatusOK)
		if n := len(env.OutboxEventsOfType(t, events.EnrollmentCreated)); n != 2 {
			t.Fatalf("%d enrollment.created after a plain repeat, want 2", n)
		}
	})
}
