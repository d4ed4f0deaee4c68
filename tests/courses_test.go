package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

type courseJSON struct {
	ID          string    `json:"id"`
	Slug        string    `json:"slug"`
	Title       string    `json:"title"`
	Status      string    `json:"status"`
	PublishedAt *string   `json:"publishedAt"`
	CreatedAt   time.Time `json:"createdAt"`
	ModuleCount int       `json:"moduleCount"`
	LessonCount int       `json:"lessonCount"`
	Modules     []struct {
		ID       string `json:"id"`
		Title    string `json:"title"`
		Position int    `json:"position"`
		Lessons  []struct {
			ID              string `json:"id"`
			Title           string `json:"title"`
			Position        int    `json:"position"`
			Type            string `json:"type"`
			DurationSeconds int    `json:"durationSeconds"`
		} `json:"lessons"`
	} `json:"modules"`
}

type courseList struct {
	Data       []courseJSON `json:"data"`
	Pagination struct {
		Cursor  *string `json:"cursor"`
		HasMore bool    `json:"has_more"`
	} `json:"pagination"`
}

// ids lists the page's course ids in order, for cmp.Diff.
func (l courseList) ids() []string {
	out := make([]string, len(l.Data))
	for i, c := range l.Data {
		out[i] = c.ID
	}
	return out
}

func TestCoursesListAndFetch(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:courses")
		api := env.API(key)

		published := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		draft := env.CreateCourse(t, ws, "Secret Draft")
		archived := env.CreatePublishedCourse(t, ws, "Old Course")
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/archive", ws, archived), nil).Expect(t, http.StatusOK)

		var list courseList
		api.Get(t, "/api/v1/courses").Expect(t, http.StatusOK).Decode(t, &list)
		if diff := cmp.Diff([]string{published}, list.ids()); diff != "" {
			t.Fatalf("list, want only the published course (-want +got):\n%s", diff)
		}
		got := list.Data[0]
		if got.Slug != "watercolor-basics" || got.Title != "Watercolor Basics" || got.Status != "published" ||
			got.PublishedAt == nil || got.ModuleCount != 1 || got.LessonCount != 2 || got.Modules != nil {
			t.Fatalf("list item %+v", got)
		}
		if list.Pagination.HasMore || list.Pagination.Cursor != nil {
			t.Fatalf("pagination %+v, want no more and a null cursor", list.Pagination)
		}
		// The raw body must carry the spec's envelope names.
		raw := api.Get(t, "/api/v1/courses").JSON(t)
		if _, ok := raw["pagination"].(map[string]any)["has_more"]; !ok {
			t.Fatalf("pagination.has_more missing: %v", raw)
		}

		var one courseJSON
		api.Get(t, "/api/v1/courses/"+published).Expect(t, http.StatusOK).Decode(t, &one)
		if len(one.Modules) != 1 || one.Modules[0].Position != 1 || len(one.Modules[0].Lessons) != 2 {
			t.Fatalf("curriculum %+v", one.Modules)
		}
		l := one.Modules[0].Lessons[1]
		if l.Position != 2 || l.Type != "text" || l.DurationSeconds != 120 || l.Title != "Lesson 2" {
			t.Fatalf("lesson %+v", l)
		}

		api.Get(t, "/api/v1/courses/"+archived).Expect(t, http.StatusOK)
		api.Get(t, "/api/v1/courses/"+draft).ExpectError(t, http.StatusNotFound, "not_found")
		api.Get(t, "/api/v1/courses/crs_doesnotexist").ExpectError(t, http.StatusNotFound, "not_found")
	})
}

func TestCoursePublishAndArchiveEmitEvents(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		id := env.CreatePublishedCourse(t, ws, "Events 101")
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/archive", ws, id), nil).Expect(t, http.StatusOK)

		evs := env.OutboxEvents(t)
		if diff := cmp.Diff([]events.Type{events.CoursePublished, events.CourseArchived}, testenv.EventTypes(evs)); diff != "" {
			t.Fatalf("outbox event types (-want +got):\n%s", diff)
		}
		for _, ev := range evs {
			var data courseJSON
			if err := json.Unmarshal(ev.Data, &data); err != nil {
				t.Fatal(err)
			}
			if ev.WorkspaceID != ws || data.ID != id || len(ev.ID) < 5 || ev.ID[:4] != "evt_" || !ev.CreatedAt.Equal(testenv.Epoch) {
				t.Fatalf("event %+v data %+v", ev, data)
			}
		}
		var data courseJSON
		_ = json.Unmarshal(evs[1].Data, &data)
		if data.Status != "archived" || len(data.Modules) != 1 {
			t.Fatalf("course.archived data is not the course as the API shows it: %s", evs[1].Data)
		}
	})
}
