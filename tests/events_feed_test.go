package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// feedPage is GET /api/v1/events's answer.
type feedPage struct {
	Data       []events.Envelope
	Pagination struct {
		Cursor  *string
		HasMore bool `json:"has_more"`
	}
}

func getFeed(t testing.TB, api testenv.Client, query string) feedPage {
	t.Helper()
	var p feedPage
	api.Get(t, "/api/v1/events?"+query).Expect(t, http.StatusOK).Decode(t, &p)
	if p.Pagination.Cursor == nil || *p.Pagination.Cursor == "" {
		t.Fatalf("events?%s: pagination.cursor is null", query)
	}
	return p
}

// settledFeed reads the whole feed until it holds n events: on PostgreSQL an event is
// readable once every transaction older than its own has ended (the snapshot rule), and
// the tests of other schemas share the server's transaction ids.
func settledFeed(t testing.TB, api testenv.Client, n int) feedPage {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		p := getFeed(t, api, "limit=100")
		if len(p.Data) >= n || time.Now().After(deadline) {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func feedIDs(evs []events.Envelope) []string {
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = e.ID
	}
	return ids
}

// The feed pages the workspace's public events oldest first, each exactly the outbox's
// envelope; filters, validation, scope and tenant isolation hold.
func TestEventsFeedPagesFiltersAndIsolation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Feed"), env.CreateWorkspace(t, "Other")
		_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "read:events")
		_, otherKey := env.CreateKeyWithQuota(t, other, 1_000_000, 1_000_000, "read:events")
		_, noScope := env.CreateKey(t, ws, "read:courses")
		api, otherAPI := env.API(key), env.API(otherKey)

		course := env.CreatePublishedCourse(t, ws, "Feed course") // course.published
		for i := range 4 {
			env.CreateStudent(t, ws, fmt.Sprintf("s%d@example.com", i)) // student.created
			env.Clock.Advance(time.Minute)
		}
		student := env.CreateStudent(t, ws, "enrolled@example.com")
		env.Enroll(t, ws, student, course) // enrollment.created
		env.CreateStudent(t, other, "other@example.com")

		var want []events.Envelope // the workspace's public events, in stream order
		for _, ev := range env.OutboxEvents(t) {
			if ev.WorkspaceID == ws && events.IsPublic(ev.Type) {
				want = append(want, ev)
			}
		}
		if len(want) != 7 {
			t.Fatalf("outbox holds %d public events of the workspace, want 7", len(want))
		}

		all := settledFeed(t, api, len(want))
		if diff := slices.Compare(feedIDs(all.Data), feedIDs(want)); diff != 0 || all.Pagination.HasMore {
			t.Fatalf("feed %v (has_more %v), want %v", feedIDs(all.Data), all.Pagination.HasMore, feedIDs(want))
		}
		// Each item is the delivery's body: the envelope as json.Marshal renders it.
		raw := api.Get(t, "/api/v1/events?limit=1").Expect(t, http.StatusOK)
		var rawPage struct{ Data []json.RawMessage }
		raw.Decode(t, &rawPage)
		wantBody, _ := json.Marshal(want[0])
		if string(rawPage.Data[0]) != string(wantBody) {
			t.Fatalf("item %s, want the delivery body %s", rawPage.Data[0], wantBody)
		}

		// Pages of 2 add up to the whole feed, no repeat.
		var paged []string
		q := "limit=2"
		for {
			p := getFeed(t, api, q)
			paged = append(paged, feedIDs(p.Data)...)
			if !p.Pagination.HasMore {
				break
			}
			q = "limit=2&cursor=" + url.QueryEscape(*p.Pagination.Cursor)
		}
		if slices.Compare(paged, feedIDs(want)) != 0 {
			t.Fatalf("paged %v, want %v", paged, feedIDs(want))
		}

		// At the tail the cursor resumes there: the next event, and only it.
		tail := *all.Pagination.Cursor
		if p := getFeed(t, api, "cursor="+url.QueryEscape(tail)); len(p.Data) != 0 {
			t.Fatalf("past the tail: %v", feedIDs(p.Data))
		}
		late := env.CreateStudent(t, ws, "late@example.com")
		p := getFeed(t, api, "wait=10&cursor="+url.QueryEscape(tail))
		if diff := cmp.Diff([]events.Type{events.StudentCreated}, testenv.EventTypes(p.Data)); diff != "" {
			t.Fatalf("after the tail (-want +got):\n%s", diff)
		}
		if !json.Valid(p.Data[0].Data) { // empty is not valid either
			t.Fatalf("after the tail: data %q is not JSON", p.Data[0].Data)
		}
		var lateData struct{ ID string }
		_ = json.Unmarshal(p.Data[0].Data, &lateData)
		if lateData.ID != late {
			t.Fatalf("after the tail: student %s, want %s", lateData.ID, late)
		}

		// types and since filter; the cursor is the workspace's place whatever the filters.
		enr := getFeed(t, api, "types=enrollment.created,course.published")
		if diff := cmp.Diff([]events.Type{events.CoursePublished, events.EnrollmentCreated}, testenv.EventTypes(enr.Data)); diff != "" {
			t.Fatalf("types filter (-want +got):\n%s", diff)
		}
		since := want[3].CreatedAt.Format(time.RFC3339Nano)
		got := getFeed(t, api, "limit=100&since="+url.QueryEscape(since))
		if slices.Compare(feedIDs(got.Data), append(feedIDs(want[3:]), p.Data[0].ID)) != 0 {
			t.Fatalf("since %s: %v", since, feedIDs(got.Data))
		}
		// Another workspace sees none of these, and its cursors are refused here.
		otherFeed := settledFeed(t, otherAPI, 1)
		if len(otherFeed.Data) != 1 || otherFeed.Data[0].WorkspaceID != other {
			t.Fatalf("other workspace's feed: %+v", otherFeed.Data)
		}
		api.Get(t, "/api/v1/events?cursor="+url.QueryEscape(*otherFeed.Pagination.Cursor)).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")

		// One event: the workspace's own, 404 for another's or an unknown id.
		var one events.Envelope
		api.Get(t, "/api/v1/events/"+want[2].ID).Expect(t, http.StatusOK).Decode(t, &one)
		if one.ID != want[2].ID || one.Type != want[2].Type || !one.CreatedAt.Equal(want[2].CreatedAt) {
			t.Fatalf("event %+v, want %+v", one, want[2])
		}
		otherAPI.Get(t, "/api/v1/events/"+want[2].ID).ExpectError(t, http.StatusNotFound, "not_found")
		api.Get(t, "/api/v1/events/"+otherFeed.Data[0].ID).ExpectError(t, http.StatusNotFound, "not_found")
		api.Get(t, "/api/v1/events/evt_unknown").ExpectError(t, http.StatusNotFound, "not_found")

		// Validation: 422 naming the parameter.
		for q, param := range map[string]string{
			"types=student.created,nope.nope": "types", "types=": "types", "limit=0": "limit", "limit=101": "limit",
			"wait=26": "wait", "wait=-1": "wait", "wait=x": "wait", "since=yesterday": "since", "cursor=abc": "cursor", "page=2": "page",
			"types=student.created,student.created": "types",
		} {
			resp := api.Get(t, "/api/v1/events?"+q).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
			var e struct{ Error struct{ Param string } }
			resp.Decode(t, &e)
			if e.Error.Param != param {
				t.Errorf("events?%s: param %q, want %q", q, e.Error.Param, param)
			}
		}
		env.API(noScope).Get(t, "/api/v1/events").ExpectError(t, http.StatusForbidden, "forbidden")
		env.API(noScope).Get(t, "/api/v1/events/"+want[0].ID).ExpectError(t, http.StatusForbidden, "forbidden")
	})
}

// A cursor older than the retention is refused with a reason to branch on, instead of
// jumping silently past events retention may have deleted.
func TestEventsFeedCursorOlderThanRetention(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Retention")
		_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "read:events")
		env.CreateStudent(t, ws, "a@example.com")
		api := env.API(key)
		cur := *settledFeed(t, api, 1).Pagination.Cursor
		env.Clock.Advance(29 * 24 * time.Hour) // within the 30 days: still good
		getFeed(t, api, "cursor="+url.QueryEscape(cur))
		env.Clock.Advance(2 * 24 * time.Hour)
		resp := api.Get(t, "/api/v1/events?cursor="+url.QueryEscape(cur)).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		var e struct {
			Error struct{ Param, Reason string }
		}
		resp.Decode(t, &e)
		if diff := cmp.Diff(struct{ Param, Reason string }{"cursor", "cursor_expired"}, e.Error); diff != "" {
			t.Fatalf("expired cursor (-want +got):\n%s\n%s", diff, resp.Body)
		}
		// Starting again without a cursor works.
		getFeed(t, api, "")
	})
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
