package tests

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestCoursePaginationAcross250CoursesHasNoDuplicatesOrGaps(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Big Academy")
		_, key := env.CreateKey(t, ws, "read:courses")
		admin := env.Admin()

		want := map[string]bool{}
		for i := 0; i < 250; i++ {
			if i%3 == 0 { // every third step shares a timestamp: ties are broken by id
				env.Clock.Advance(time.Second)
			}
			var c struct{ ID string }
			admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses", ws), map[string]string{"title": fmt.Sprintf("Course %d", i)}).
				Expect(t, http.StatusCreated).Decode(t, &c)
			if i%10 == 9 {
				continue // drafts are never listed
			}
			env.PublishCourse(t, ws, c.ID)
			want[c.ID] = true
		}

		seen := map[string]bool{}
		var prev *courseJSON
		path := "/api/v1/courses?limit=7"
		pages := 0
		for {
			var page courseList
			env.API(key).Get(t, path).Expect(t, http.StatusOK).Decode(t, &page)
			pages++
			if len(page.Data) > 7 {
				t.Fatalf("page of %d items with limit 7", len(page.Data))
			}
			for _, c := range page.Data {
				if seen[c.ID] {
					t.Fatalf("course %s listed twice", c.ID)
				}
				seen[c.ID] = true
				if prev != nil && (c.CreatedAt.After(prev.CreatedAt) || c.CreatedAt.Equal(prev.CreatedAt) && c.ID > prev.ID) {
					t.Fatalf("order broken: %s (%s) after %s (%s)", c.ID, c.CreatedAt, prev.ID, prev.CreatedAt)
				}
				c := c
				prev = &c
			}
			if !page.Pagination.HasMore {
				if page.Pagination.Cursor != nil {
					t.Fatal("last page carries a cursor")
				}
				break
			}
			if page.Pagination.Cursor == nil {
				t.Fatal("has_more without a cursor")
			}
			path = "/api/v1/courses?limit=7&cursor=" + url.QueryEscape(*page.Pagination.Cursor)
		}
		if len(seen) != len(want) {
			t.Fatalf("listed %d courses, want %d", len(seen), len(want))
		}
		for id := range want {
			if !seen[id] {
				t.Fatalf("course %s never listed", id)
			}
		}
		if pages != (len(want)+6)/7 {
			t.Fatalf("%d pages for %d courses at limit 7", pages, len(want))
		}
	})
}

func TestListLimitValidation(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	ws := env.CreateWorkspace(t, "Academy")
	_, key := env.CreateKey(t, ws, "read:courses")
	for i := 0; i < 30; i++ {
		env.CreatePublishedCourse(t, ws, fmt.Sprintf("C%d", i))
	}
	for _, bad := range []string{"0", "101", "-1", "abc", "", "2.5", "1e2"} {
		r := env.API(key).Get(t, "/api/v1/courses?limit="+url.QueryEscape(bad)).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		if r.JSON(t)["error"].(map[string]any)["param"] != "limit" {
			t.Fatalf("limit=%q: error does not name limit: %s", bad, r.Body)
		}
	}
	var page courseList
	env.API(key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK).Decode(t, &page)
	if len(page.Data) != 25 || !page.Pagination.HasMore {
		t.Fatalf("default page: %d items, has_more %v", len(page.Data), page.Pagination.HasMore)
	}
	env.API(key).Get(t, "/api/v1/courses?limit=100").Expect(t, http.StatusOK).Decode(t, &page)
	if len(page.Data) != 30 || page.Pagination.HasMore {
		t.Fatalf("limit=100: %d items, has_more %v", len(page.Data), page.Pagination.HasMore)
	}
}
