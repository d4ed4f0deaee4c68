package tests

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestTenantIsolationForCourses(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		wsA := env.CreateWorkspace(t, "A")
		wsB := env.CreateWorkspace(t, "B")
		_, keyA := env.CreateKey(t, wsA, "read:courses")
		_, keyB := env.CreateKey(t, wsB, "read:courses")
		var courseA, courseB []string
		for i := 0; i < 3; i++ {
			courseA = append(courseA, env.CreatePublishedCourse(t, wsA, "A course"))
			courseB = append(courseB, env.CreatePublishedCourse(t, wsB, "B course"))
		}

		// By id: B's course is 404 for A, exactly like a course that does not exist.
		for _, id := range courseB {
			env.API(keyA).Get(t, "/api/v1/courses/"+id).ExpectError(t, http.StatusNotFound, "not_found")
		}
		// By list: A sees exactly its own.
		var page courseList
		env.API(keyA).Get(t, "/api/v1/courses?limit=100").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 3 {
			t.Fatalf("A lists %d courses", len(page.Data))
		}
		for _, c := range page.Data {
			if !contains(courseA, c.ID) {
				t.Fatalf("A sees foreign course %s", c.ID)
			}
		}
		// By cursor: a cursor taken from A's list is refused for B.
		env.API(keyA).Get(t, "/api/v1/courses?limit=1").Expect(t, http.StatusOK).Decode(t, &page)
		if page.Pagination.Cursor == nil {
			t.Fatal("no cursor")
		}
		r := env.API(keyB).Get(t, "/api/v1/courses?limit=1&cursor="+url.QueryEscape(*page.Pagination.Cursor)).
			ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		if r.JSON(t)["error"].(map[string]any)["param"] != "cursor" {
			t.Fatalf("error does not name the cursor: %s", r.Body)
		}
		// The same cursor works for A, and a tampered one does not.
		env.API(keyA).Get(t, "/api/v1/courses?limit=1&cursor="+url.QueryEscape(*page.Pagination.Cursor)).Expect(t, http.StatusOK)
		tampered := []byte(*page.Pagination.Cursor)
		tampered[len(tampered)/2] ^= 1
		env.API(keyA).Get(t, "/api/v1/courses?limit=1&cursor="+url.QueryEscape(string(tampered))).
			ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
