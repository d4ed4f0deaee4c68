package tests

import (
	"net/http"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
	"github.com/google/go-cmp/cmp"
)

// GET /api/v1/orders/{id}: the order as the list shows it, read:orders only, 404 from
// another workspace.
func TestOrderFetchByID(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Academy"), env.CreateWorkspace(t, "Other")
		_, key := env.CreateKey(t, ws, "read:orders")
		_, noScope := env.CreateKey(t, ws, "read:students")
		_, foreign := env.CreateKey(t, other, "read:orders")
		course := env.CreatePublishedCourse(t, ws, "Watercolor")
		order := env.PlaceOrder(t, ws, env.CreateStudent(t, ws, "ada@example.com"), "eur", testenv.OrderItem{CourseID: course, Amount: 4900})
		env.PostRefund(t, ws, order.ID, 900).Expect(t, http.StatusOK)

		var got testenv.Order
		env.API(key).Get(t, "/api/v1/orders/"+order.ID).Expect(t, http.StatusOK).Decode(t, &got)
		var list struct{ Data []testenv.Order }
		env.API(key).Get(t, "/api/v1/orders").Expect(t, http.StatusOK).Decode(t, &list)
		type refundState struct {
			ID, Status     string
			AmountRefunded int64
		}
		listed := make([]refundState, len(list.Data))
		for i, o := range list.Data {
			listed[i] = refundState{o.ID, o.Status, o.AmountRefunded}
		}
		want := refundState{order.ID, "partially_refunded", 900}
		if diff := cmp.Diff(want, refundState{got.ID, got.Status, got.AmountRefunded}); diff != "" {
			t.Fatalf("GET order (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]refundState{want}, listed); diff != "" {
			t.Fatalf("the order list (-want +got):\n%s", diff)
		}
		env.API(noScope).Get(t, "/api/v1/orders/"+order.ID).ExpectError(t, http.StatusForbidden, "forbidden")
		env.API(foreign).Get(t, "/api/v1/orders/"+order.ID).ExpectError(t, http.StatusNotFound, "not_found")
		env.API(key).Get(t, "/api/v1/orders/ord_unknown").ExpectError(t, http.StatusNotFound, "not_found")
		expectInvalid(t, env.API(key).Get(t, "/api/v1/orders/"+order.ID+"?expand=items"), "expand")
	})
}

// GET /api/v1/courses?slug=: the one published course with that slug, or an empty list;
// drafts, archived courses and other workspaces' courses are never found.
func TestCourseLookupBySlug(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Academy"), env.CreateWorkspace(t, "Other")
		_, key := env.CreateKey(t, ws, "read:courses")
		_, noScope := env.CreateKey(t, ws, "read:students")
		published := env.CreatePublishedCourse(t, ws, "Watercolor Foundations")
		env.CreatePublishedCourse(t, ws, "Sourdough")
		env.CreateCourse(t, ws, "Draft Course")
		env.CreatePublishedCourse(t, other, "Foreign Course")

		var page courseList
		env.API(key).Get(t, "/api/v1/courses?slug=watercolor-foundations").Expect(t, http.StatusOK).Decode(t, &page)
		if diff := cmp.Diff([]string{published}, page.ids()); diff != "" || page.Pagination.HasMore || page.Pagination.Cursor != nil {
			t.Fatalf("?slug=watercolor-foundations (-want +got):\n%s\npagination %+v, want none", diff, page.Pagination)
		}
		for _, slug := range []string{"draft-course", "foreign-course", "no-such-course"} {
			env.API(key).Get(t, "/api/v1/courses?slug="+slug).Expect(t, http.StatusOK).Decode(t, &page)
			if len(page.Data) != 0 {
				t.Fatalf("?slug=%s found %+v", slug, page.Data)
			}
		}
		expectInvalid(t, env.API(key).Get(t, "/api/v1/courses?slug="), "slug")
		expectInvalid(t, env.API(key).Get(t, "/api/v1/courses?slug=Not%20A%20Slug"), "slug")
		env.API(noScope).Get(t, "/api/v1/courses?slug=watercolor-foundations").ExpectError(t, http.StatusForbidden, "forbidden")

		// A cursor of the whole list is not one of the slug's list.
		env.API(key).Get(t, "/api/v1/courses?limit=1").Expect(t, http.StatusOK).Decode(t, &page)
		expectInvalid(t, env.API(key).Get(t, "/api/v1/courses?slug=sourdough&cursor="+*page.Pagination.Cursor), "cursor")
	})
}

// DELETE /api/v1/enrollments/{id} revokes once: enrollment.revoked is emitted by the
// first call only, a repeat answers the same revoked enrollment; another workspace's is
// 404; POST /enrollments reactivates it.
func TestEnrollmentDeleteRevokesIdempotently(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Academy"), env.CreateWorkspace(t, "Other")
		key := env.LearningKey(t, ws)
		_, readOnly := env.CreateKey(t, ws, "read:students", "read:courses")
		_, foreign := env.CreateKey(t, other, "write:enrollments")
		course := env.CreatePublishedCourse(t, ws, "Watercolor")
		student := env.CreateStudent(t, ws, "ada@example.com")
		var created enrollmentJSON
		env.API(key).Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).
			Expect(t, http.StatusCreated).Decode(t, &created)
		path := "/api/v1/enrollments/" + created.ID
		revocations := func() int { return len(env.OutboxEventsOfType(t, events.EnrollmentRevoked)) }

		env.API(readOnly).Do(t, http.MethodDelete, path, nil).ExpectError(t, http.StatusForbidden, "forbidden")
		env.API(foreign).Do(t, http.MethodDelete, path, nil).ExpectError(t, http.StatusNotFound, "not_found")
		env.API(key).Do(t, http.MethodDelete, "/api/v1/enrollments/enr_unknown", nil).ExpectError(t, http.StatusNotFound, "not_found")
		if n := revocations(); n != 0 {
			t.Fatalf("%d enrollment.revoked before the revocation", n)
		}

		var first, again enrollmentJSON
		env.API(key).Do(t, http.MethodDelete, path, nil).Expect(t, http.StatusOK).Decode(t, &first)
		if first.ID != created.ID || first.Status != "revoked" || first.RevokedAt == nil || revocations() != 1 {
			t.Fatalf("DELETE answered %+v, %d events", first, revocations())
		}
		env.Clock.Advance(time.Minute)
		env.API(key).Do(t, http.MethodDelete, path, nil).Expect(t, http.StatusOK).Decode(t, &again)
		if again.Status != "revoked" || again.RevokedAt == nil || *again.RevokedAt != *first.RevokedAt || revocations() != 1 {
			t.Fatalf("second DELETE answered %+v (first %+v), %d events: want the same, no event", again, first, revocations())
		}

		// The student's history shows it revoked; POST reactivates it.
		var s studentJSON
		env.API(key).Get(t, "/api/v1/students/"+student).Expect(t, http.StatusOK).Decode(t, &s)
		if len(s.Enrollments) != 1 || s.Enrollments[0].Status != "revoked" {
			t.Fatalf("student history %+v", s.Enrollments)
		}
		var back enrollmentJSON
		env.API(key).Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).Expect(t, http.StatusOK).Decode(t, &back)
		if back.ID != created.ID || back.Status != "active" {
			t.Fatalf("re-enrolled %+v", back)
		}
	})
}
