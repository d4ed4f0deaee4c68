package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// renderTestV2 is a payload version that exists only in this test: a body no v1
// receiver could mistake for its own.
func renderTestV2(ev events.Envelope) ([]byte, error) {
	return json.Marshal(map[string]any{"payloadVersion": 2, "event": ev.ID, "kind": ev.Type, "object": ev.Data})
}

// An endpoint records the payload version current when it was created and gets every
// event rendered at it: after a v2 is released, a v1 endpoint still gets v1 bodies,
// byte for byte the v1 envelope, and never the v2 ones.
func TestWebhookEndpointsGetThePayloadVersionTheyWereCreatedWith(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		v2Released := testenv.Epoch.Add(time.Hour)
		versions, err := platform.NewVersions([]platform.Major{
			{Number: 1, Released: platform.V1Released, Payload: platform.RenderV1, Migration: "https://docs.example.com/migrate/v2"},
			{Number: 2, Released: v2Released, Payload: renderTestV2},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var m members.Application
		env := testenv.StartWebhooks(t, dbURL, nil, fx.Replace(versions), fx.Populate(&m))
		ws := env.CreateWorkspace(t, "Academy")
		// The v2 receiver is a plain server: testenv.Receiver checks every body against the
		// (v1) document, which a v2 body does not follow, rightly.
		old, current := testenv.NewReceiver(t), newRawReceiver(t)
		v1Endpoint, _ := env.CreateWebhook(t, ws, old.URL, "course.published")
		env.Clock.Set(v2Released.Add(time.Minute))
		v2Endpoint, _ := env.CreateWebhook(t, ws, current.URL, "course.published")

		// The operator API shows each endpoint's version.
		var list struct{ Data []map[string]any }
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws)).Expect(t, http.StatusOK).Decode(t, &list)
		got := map[any]any{}
		for _, w := range list.Data {
			got[w["id"]] = w["payloadVersion"]
		}
		if got[v1Endpoint] != float64(1) || got[v2Endpoint] != float64(2) {
			t.Fatalf("payload versions %v, want %s at 1 and %s at 2", got, v1Endpoint, v2Endpoint)
		}

		env.CreatePublishedCourse(t, ws, "Watercolor")
		env.WaitDeliveries(t, 2)
		env.RunDue(t)
		if len(old.Got()) != 1 || len(current.got()) != 1 {
			t.Fatalf("deliveries: v1 endpoint %d, v2 endpoint %d, want one each", len(old.Got()), len(current.got()))
		}
		var v1Body events.Envelope
		if err := json.Unmarshal(old.Got()[0].Body, &v1Body); err != nil || v1Body.Type != events.CoursePublished {
			t.Fatalf("v1 endpoint's body %s (%v)", old.Got()[0].Body, err)
		}
		if again, _ := platform.RenderV1(v1Body); string(again) != string(old.Got()[0].Body) {
			t.Fatalf("v1 body is not the v1 envelope:\n got %s\nwant %s", old.Got()[0].Body, again)
		}
		if strings.Contains(string(old.Got()[0].Body), "payloadVersion") {
			t.Fatalf("the v1 endpoint got the v2 payload: %s", old.Got()[0].Body)
		}
		var v2Body map[string]any
		if err := json.Unmarshal(current.got()[0], &v2Body); err != nil || v2Body["payloadVersion"] != float64(2) || v2Body["event"] != v1Body.ID {
			t.Fatalf("v2 endpoint's body %s (%v), want the v2 rendering of %s", current.got()[0], err, v1Body.ID)
		}

		// The dashboard's endpoint page says which version an endpoint gets.
		link, err := m.Commands.IssueLink.Handle(context.Background(), membercmd.IssueLink{WorkspaceID: ws})
		if err != nil {
			t.Fatal(err)
		}
		p := env.Person()
		p.SignIn(t, link.URL).Expect(t, http.StatusSeeOther)
		for id, want := range map[string]string{v1Endpoint: "v1", v2Endpoint: "v2"} {
			page := string(p.Get(t, "/dashboard/w/"+ws+"/webhooks/"+id).Expect(t, http.StatusOK).Body)
			if !strings.Contains(page, "Payload version</dt><dd>"+want+" ") {
				t.Errorf("endpoint page of %s does not show payload version %s", id, want)
			}
		}
	})
}

// rawReceiver keeps the bodies it is sent and answers 204.
type rawReceiver struct {
	URL    string
	mu     sync.Mutex
	bodies [][]byte
}

func newRawReceiver(t *testing.T) *rawReceiver {
	rc := &rawReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.bodies = append(rc.bodies, body)
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	rc.URL = srv.URL
	return rc
}

func (rc *rawReceiver) got() [][]byte {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([][]byte(nil), rc.bodies...)
}
