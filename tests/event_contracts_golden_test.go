package tests

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The event contracts are byte-compatible with what receivers got before they were typed:
// testdata/events/<type>.golden holds, one a line, the exact webhook bodies (public types)
// or outbox payloads (internal types) of a fixed scenario run with a manual clock and
// sequential ids. UPDATE_GOLDEN=1 rewrites the files (only when a contract changes on
// purpose, with a new schema version).

func TestEventContractsMatchGoldenBodies(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil,
			fx.Replace(fx.Annotate(testenv.NewSequentialIDs(), fx.As(new(platform.IDs)))))
		receiver := testenv.NewReceiver(t)
		ws := env.CreateWorkspace(t, "Golden Academy")
		all := make([]string, len(events.PublicTypes))
		for i, typ := range events.PublicTypes {
			all[i] = string(typ)
		}
		env.CreateWebhook(t, ws, receiver.URL, all...)
		runGoldenScenario(t, env.Env, ws)

		env.WaitForConsumers(t)
		var public int
		for _, ev := range env.OutboxEvents(t) {
			if events.IsPublic(ev.Type) {
				public++
			}
		}
		env.WaitDeliveries(t, public)
		env.RunDue(t)

		bodies := map[events.Type][]string{}
		for _, r := range receiver.Got() {
			typ := typeOfBody(t, r.Body)
			bodies[typ] = append(bodies[typ], string(r.Body))
		}
		for _, typ := range []events.Type{events.LessonCompleted, events.EnrollmentCompleted} {
			bodies[typ] = append(bodies[typ], outboxPayloads(t, env.Env, typ)...)
		}
		for _, typ := range append(append([]events.Type{}, events.PublicTypes...), events.LessonCompleted, events.EnrollmentCompleted) {
			got := bodies[typ]
			if len(got) == 0 {
				t.Errorf("%s: the scenario produced no event of this type", typ)
				continue
			}
			sort.Strings(got) // bodies start with the sequential event id
			compareGolden(t, typ, []byte(joinLines(got)))
		}
	})
}

// runGoldenScenario produces every event type once or more, a minute apart.
func runGoldenScenario(t *testing.T, env *testenv.Env, ws string) {
	admin := env.Admin()
	base := fmt.Sprintf("/internal/v1/workspaces/%s", ws)
	at := testenv.Epoch
	tick := func() { at = at.Add(time.Minute + 123456*time.Microsecond); env.Clock.Set(at) }

	course := env.CreateCourse(t, ws, "Watercolor Basics")
	tick()
	env.PublishCourse(t, ws, course) // course.published
	tick()
	var student struct{ ID string }
	admin.Post(t, base+"/students", map[string]any{"email": "Ada@Example.com", "firstName": "Ada", "lastName": "Lovelace",
		"externalId": "crm-1", "metadata": map[string]string{"plan": "pro"}}).Expect(t, http.StatusCreated).Decode(t, &student) // student.created
	tick()
	admin.Do(t, http.MethodPatch, base+"/students/"+student.ID, map[string]any{"lastName": "King"}).Expect(t, http.StatusOK) // student.updated
	tick()
	order := env.PlaceOrder(t, ws, student.ID, "usd", testenv.OrderItem{CourseID: course, Amount: 4900}) // order.paid, enrollment.created
	tick()
	for _, lesson := range env.LessonIDs(t, ws, course) { // lesson.completed, enrollment.completed
		env.CompleteLesson(t, ws, student.ID, lesson).Expect(t, http.StatusCreated)
		tick()
	}
	admin.Post(t, base+"/certificates", map[string]string{"studentId": student.ID, "courseId": course}).Expect(t, http.StatusCreated) // certificate.issued
	tick()
	var session struct{ ID string }
	admin.Post(t, base+"/live-sessions", map[string]string{"courseId": course, "title": "Live Q&A"}).Expect(t, http.StatusCreated).Decode(t, &session)
	tick()
	admin.Post(t, base+"/live-sessions/"+session.ID+"/start", nil).Expect(t, http.StatusOK) // live_session.started
	tick()
	admin.Post(t, base+"/live-sessions/"+session.ID+"/end", nil).Expect(t, http.StatusOK) // live_session.ended
	tick()
	admin.Post(t, base+"/recordings", map[string]any{"liveSessionId": session.ID, "durationSeconds": 3600}).Expect(t, http.StatusCreated) // recording.ready
	tick()
	env.PostRefund(t, ws, order.ID, 900).Expect(t, http.StatusOK) // order.refunded (partial)
	tick()
	env.PostRefund(t, ws, order.ID, 0).Expect(t, http.StatusOK) // order.refunded (the rest), enrollment.revoked
	tick()
	other := env.CreateStudent(t, ws, "grace@example.com")
	tick()
	enrollment := env.Enroll(t, ws, other, course) // enrollment.created (operator)
	tick()
	env.RevokeEnrollment(t, ws, enrollment).Expect(t, http.StatusOK) // enrollment.revoked
	tick()
	admin.Do(t, http.MethodDelete, base+"/students/"+other, nil).Expect(t, http.StatusOK) // student.deleted
	tick()
	admin.Post(t, base+"/courses/"+course+"/archive", nil).Expect(t, http.StatusOK) // course.archived
}

func outboxPayloads(t *testing.T, env *testenv.Env, typ events.Type) []string {
	var out []string
	for _, ev := range env.OutboxEventsOfType(t, typ) {
		var p []byte
		if err := env.DB.Reader.GetContext(context.Background(), &p,
			env.DB.Reader.Rebind(`SELECT payload FROM watermill_events WHERE uuid = ?`), ev.ID); err != nil {
			t.Fatalf("outbox payload of %s: %v", ev.ID, err)
		}
		out = append(out, string(p))
	}
	return out
}

func typeOfBody(t *testing.T, body []byte) events.Type {
	i := bytes.Index(body, []byte(`"type":"`))
	if i < 0 {
		t.Fatalf("webhook body without a type: %s", body)
	}
	rest := body[i+len(`"type":"`):]
	return events.Type(rest[:bytes.IndexByte(rest, '"')])
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func compareGolden(t *testing.T, typ events.Type, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "events", string(typ)+".golden")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("write %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s (UPDATE_GOLDEN=1 writes it): %v", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: bodies differ from %s\n got: %s\nwant: %s", typ, path, got, want)
	}
}
