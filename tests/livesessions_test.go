package tests

import (
	"encoding/json"
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

type liveSessionJSON struct {
	ID        string  `json:"id"`
	CourseID  string  `json:"courseId"`
	Title     string  `json:"title"`
	Status    string  `json:"status"`
	StartedAt *string `json:"startedAt"`
	EndedAt   *string `json:"endedAt"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
}

type recordingJSON struct {
	ID              string `json:"id"`
	LiveSessionID   string `json:"liveSessionId"`
	CourseID        string `json:"courseId"`
	Status          string `json:"status"`
	DurationSeconds int    `json:"durationSeconds"`
	CreatedAt       string `json:"createdAt"`
}

func TestLiveSessionLifeCycleAndRecording(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		course := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		admin := env.Admin()
		base := fmt.Sprintf("/internal/v1/workspaces/%s", ws)

		var s liveSessionJSON
		admin.Post(t, base+"/live-sessions", map[string]string{"courseId": course, "title": "Live Q&A"}).Expect(t, http.StatusCreated).Decode(t, &s)
		if !strings.HasPrefix(s.ID, "lvs_") {
			t.Fatalf("session id %q", s.ID)
		}
		if diff := cmp.Diff(liveSessionJSON{ID: s.ID, CourseID: course, Title: "Live Q&A", Status: "scheduled", CreatedAt: epochText, UpdatedAt: epochText}, s); diff != "" {
			t.Fatalf("scheduled session (-want +got):\n%s", diff)
		}
		// A recording needs an ended session; ending needs a live one.
		mustNameParam(t, admin.Post(t, base+"/recordings", map[string]any{"liveSessionId": s.ID, "durationSeconds": 60}), "liveSessionId")
		mustNameParam(t, admin.Post(t, base+"/live-sessions/"+s.ID+"/end", nil), "status")

		env.Clock.Set(testenv.Epoch.Add(time.Hour))
		var started liveSessionJSON
		admin.Post(t, base+"/live-sessions/"+s.ID+"/start", nil).Expect(t, http.StatusOK).Decode(t, &started)
		wantStarted := s
		wantStarted.Status, wantStarted.StartedAt, wantStarted.UpdatedAt = "live", ptr("2026-11-21T11:00:00Z"), started.UpdatedAt
		if diff := cmp.Diff(wantStarted, started); diff != "" {
			t.Fatalf("started session (-want +got):\n%s", diff)
		}
		mustNameParam(t, admin.Post(t, base+"/live-sessions/"+s.ID+"/start", nil), "status")

		env.Clock.Set(testenv.Epoch.Add(2 * time.Hour))
		var ended liveSessionJSON
		admin.Post(t, base+"/live-sessions/"+s.ID+"/end", nil).Expect(t, http.StatusOK).Decode(t, &ended)
		wantEnded := started
		wantEnded.Status, wantEnded.EndedAt, wantEnded.UpdatedAt = "ended", ptr("2026-11-21T12:00:00Z"), ended.UpdatedAt
		if diff := cmp.Diff(wantEnded, ended); diff != "" {
			t.Fatalf("ended session (-want +got):\n%s", diff)
		}
		mustNameParam(t, admin.Post(t, base+"/live-sessions/"+s.ID+"/start", nil), "status")
		mustNameParam(t, admin.Post(t, base+"/live-sessions/"+s.ID+"/end", nil), "status")

		mustNameParam(t, admin.Post(t, base+"/recordings", map[string]any{"liveSessionId": s.ID}), "durationSeconds")
		mustNameParam(t, admin.Post(t, base+"/recordings", map[string]any{"liveSessionId": s.ID, "durationSeconds": 0}), "durationSeconds")
		var rec recordingJSON
		admin.Post(t, base+"/recordings", map[string]any{"liveSessionId": s.ID, "durationSeconds": 3600}).Expect(t, http.StatusCreated).Decode(t, &rec)
		if !strings.HasPrefix(rec.ID, "rec_") {
			t.Fatalf("recording id %q", rec.ID)
		}
		if diff := cmp.Diff(recordingJSON{ID: rec.ID, LiveSessionID: s.ID, CourseID: course, Status: "ready", DurationSeconds: 3600, CreatedAt: "2026-11-21T12:00:00Z"}, rec); diff != "" {
			t.Fatalf("recording (-want +got):\n%s", diff)
		}

		// Each event carries the resource as the command answered it.
		for _, c := range []struct {
			typ  events.Type
			want any
			got  any
		}{
			{events.LiveSessionStarted, started, &liveSessionJSON{}},
			{events.LiveSessionEnded, ended, &liveSessionJSON{}},
			{events.RecordingReady, rec, &recordingJSON{}},
		} {
			evs := env.OutboxEventsOfType(t, c.typ)
			if len(evs) != 1 || evs[0].WorkspaceID != ws {
				t.Fatalf("%s events %+v", c.typ, evs)
			}
			if err := json.Unmarshal(evs[0].Data, c.got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(reflect.ValueOf(c.got).Elem().Interface(), c.want) {
				t.Fatalf("%s data %s, want %+v", c.typ, evs[0].Data, c.want)
			}
		}
	})
}

func TestLiveSessionValidationAndIsolation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		wsA := env.CreateWorkspace(t, "A")
		wsB := env.CreateWorkspace(t, "B")
		courseA := env.CreatePublishedCourse(t, wsA, "A course")
		courseB := env.CreatePublishedCourse(t, wsB, "B course")
		admin := env.Admin()
		baseA := fmt.Sprintf("/internal/v1/workspaces/%s", wsA)
		baseB := fmt.Sprintf("/internal/v1/workspaces/%s", wsB)

		mustNameParam(t, admin.Post(t, baseA+"/live-sessions", map[string]string{"courseId": courseB, "title": "x"}), "courseId")
		mustNameParam(t, admin.Post(t, baseA+"/live-sessions", map[string]string{"courseId": "crs_nope", "title": "x"}), "courseId")
		mustNameParam(t, admin.Post(t, baseA+"/live-sessions", map[string]string{"courseId": courseA}), "title")
		mustNameParam(t, admin.Post(t, baseA+"/live-sessions", map[string]string{"courseId": courseA, "title": "   "}), "title")
		mustNameParam(t, admin.Post(t, baseA+"/live-sessions", map[string]string{"courseId": courseA, "title": strings.Repeat("x", 201)}), "title")
		mustNameParam(t, admin.Post(t, baseA+"/live-sessions", map[string]any{"courseId": courseA, "title": "x", "startsAt": "now"}), "startsAt")
		admin.Post(t, "/internal/v1/workspaces/org_nope/live-sessions", map[string]string{"courseId": courseA, "title": "x"}).
			ExpectError(t, http.StatusNotFound, "not_found")

		var sB liveSessionJSON
		admin.Post(t, baseB+"/live-sessions", map[string]string{"courseId": courseB, "title": "B live"}).Expect(t, http.StatusCreated).Decode(t, &sB)
		admin.Post(t, baseB+"/live-sessions/"+sB.ID+"/start", nil).Expect(t, http.StatusOK)
		admin.Post(t, baseB+"/live-sessions/"+sB.ID+"/end", nil).Expect(t, http.StatusOK)
		// A cannot drive or record B's session.
		admin.Post(t, baseA+"/live-sessions/"+sB.ID+"/start", nil).ExpectError(t, http.StatusNotFound, "not_found")
		admin.Post(t, baseA+"/live-sessions/lvs_nope/end", nil).ExpectError(t, http.StatusNotFound, "not_found")
		mustNameParam(t, admin.Post(t, baseA+"/recordings", map[string]any{"liveSessionId": sB.ID, "durationSeconds": 60}), "liveSessionId")
		if n := len(env.OutboxEventsOfType(t, events.RecordingReady)); n != 0 {
			t.Fatalf("%d recording.ready events after refused recordings", n)
		}
	})
}
