package tests

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The course list is served from a cache of encoded pages; every committed change
// must show on the very next request, on this instance and on another one.
func TestCachedCoursePagesNeverGoStale(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:courses")
		api := env.API(key)
		list := func() courseList {
			var page courseList
			api.Get(t, "/api/v1/courses?limit=2").Expect(t, http.StatusOK).Decode(t, &page)
			return page
		}
		first := env.CreatePublishedCourse(t, ws, "First")
		if p := list(); len(p.Data) != 1 || p.Data[0].LessonCount != 2 {
			t.Fatalf("initial list %+v", p.Data)
		}
		list() // served from the cache now

		// A new lesson changes lessonCount.
		var c courseJSON
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s", ws, first)).Decode(t, &c)
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/modules/%s/lessons", ws, c.Modules[0].ID),
			map[string]any{"title": "Extra", "type": "quiz", "durationSeconds": 30}).Expect(t, http.StatusCreated)
		if p := list(); p.Data[0].LessonCount != 3 {
			t.Fatalf("after adding a lesson: lessonCount %d", p.Data[0].LessonCount)
		}
		// Publishing another course shows it first.
		second := env.CreatePublishedCourse(t, ws, "Second")
		if p := list(); len(p.Data) != 2 || p.Data[0].ID != second {
			t.Fatalf("after publishing: %+v", p.Data)
		}
		// A third moves the second page behind a cursor, whose page is cached too.
		env.CreatePublishedCourse(t, ws, "Third")
		p := list()
		if !p.Pagination.HasMore {
			t.Fatal("no second page")
		}
		next := "/api/v1/courses?limit=2&cursor=" + url.QueryEscape(*p.Pagination.Cursor)
		var page2 courseList
		api.Get(t, next).Expect(t, http.StatusOK).Decode(t, &page2)
		if len(page2.Data) != 1 || page2.Data[0].ID != first {
			t.Fatalf("second page %+v", page2.Data)
		}
		// Archiving removes it, from a page that was cached.
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/archive", ws, first), nil).Expect(t, http.StatusOK)
		api.Get(t, next).Expect(t, http.StatusOK).Decode(t, &page2)
		if len(page2.Data) != 0 {
			t.Fatalf("archived course still listed: %+v", page2.Data)
		}

		// Another workspace never receives this workspace's cached pages.
		other := env.CreateWorkspace(t, "Other")
		_, otherKey := env.CreateKey(t, other, "read:courses")
		var empty courseList
		env.API(otherKey).Get(t, "/api/v1/courses?limit=2").Expect(t, http.StatusOK).Decode(t, &empty)
		if len(empty.Data) != 0 {
			t.Fatalf("other workspace sees %+v", empty.Data)
		}
	})
}

func TestCachedCoursePagesSeeChangesFromAnotherInstance(t *testing.T) {
	dbURL := testenv.NewPostgresURL(t)
	a := testenv.Start(t, dbURL)
	b := testenv.Start(t, dbURL)
	ws := a.CreateWorkspace(t, "Shared")
	_, key := a.CreateKey(t, ws, "read:courses")
	a.CreatePublishedCourse(t, ws, "One")
	var page courseList
	a.API(key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK).Decode(t, &page)
	a.API(key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK) // cached on a
	b.CreatePublishedCourse(t, ws, "Two")                         // committed by b
	a.API(key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK).Decode(t, &page)
	if len(page.Data) != 2 {
		t.Fatalf("instance a serves a stale page: %d courses", len(page.Data))
	}
}
