package tests

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/idempotency"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

const idemHeader = "Idempotency-Key"

// replayed tells whether r is a replay, failing on any other value of the header.
func replayed(t *testing.T, r testenv.Response) bool {
	t.Helper()
	switch v := r.Header.Values("Idempotent-Replayed"); {
	case len(v) == 0:
		return false
	case len(v) == 1 && v[0] == "true":
		return true
	default:
		t.Fatalf("Idempotent-Replayed %q", v)
		return false
	}
}

// expectReplayOf fails unless r replays first: the same status and body, byte for byte,
// and the header that says so.
func expectReplayOf(t *testing.T, r, first testenv.Response) {
	t.Helper()
	if r.Status != first.Status || !bytes.Equal(r.Body, first.Body) || !replayed(t, r) {
		t.Fatalf("got %d %s (replayed %v), want the replay of %d %s", r.Status, r.Body, replayed(t, r), first.Status, first.Body)
	}
	if got, want := r.Header.Get("Content-Type"), first.Header.Get("Content-Type"); got != want {
		t.Fatalf("replay Content-Type %q, want %q", got, want)
	}
}

// idempotencyRows counts the stored records of the workspace.
func idempotencyRows(t *testing.T, env *testenv.Env, ws string) int {
	t.Helper()
	var n int
	if err := env.DB.Reader.GetContext(context.Background(), &n, env.DB.Reader.Rebind(
		`SELECT COUNT(*) FROM idempotency_keys WHERE workspace_id = ?`), ws); err != nil {
		t.Fatal(err)
	}
	return n
}

// Twenty identical POSTs at once with one key: one student, one student.created, the
// same 201 for all, nineteen of them replays (the losers waited for the winner).
func TestIdempotencyConcurrentIdenticalPOSTsMakeOneEffect(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws)).WithHeader(idemHeader, "crm-sync-7f3a9c")
		const n = 20
		answers := make([]testenv.Response, n)
		contracttest.Parallel(n, func(i int) error {
			answers[i] = api.Post(t, "/api/v1/students", map[string]any{"email": "lead@example.com", "firstName": "Lead"})
			return nil
		})
		replays := 0
		for i, r := range answers {
			if r.Status != http.StatusCreated || !bytes.Equal(r.Body, answers[0].Body) {
				t.Fatalf("answer %d: %d %s; answer 0: %d %s", i, r.Status, r.Body, answers[0].Status, answers[0].Body)
			}
			if replayed(t, r) {
				replays++
			}
		}
		if replays != n-1 {
			t.Fatalf("%d replays, want %d", replays, n-1)
		}
		if evs := env.OutboxEventsOfType(t, events.StudentCreated); len(evs) != 1 {
			t.Fatalf("%d student.created events, want 1", len(evs))
		}
		var list studentList
		env.API(env.LearningKey(t, ws)).Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 1 {
			t.Fatalf("%d students, want 1", len(list.Data))
		}
		if rows := idempotencyRows(t, env, ws); rows != 1 {
			t.Fatalf("%d idempotency records, want 1", rows)
		}
	})
}

// A repeat replays byte for byte and emits nothing, whatever the key order and
// whitespace of its body; the same key with another body, path or query is 422 naming
// the header, and changes nothing.
func TestIdempotencyReplaysTheSameRequestAndRefusesAnother(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws)).WithHeader(idemHeader, "key-1")
		first := api.Post(t, "/api/v1/students", `{"email":"ada@example.com","firstName":"Ada","metadata":{"a":"1","b":"2"}}`).Expect(t, http.StatusCreated)
		if replayed(t, first) {
			t.Fatal("the first answer is marked as a replay")
		}
		env.Clock.Advance(time.Hour)
		again := api.Post(t, "/api/v1/students", "{\n  \"metadata\": {\"b\": \"2\", \"a\": \"1\"},\n  \"firstName\": \"Ada\", \"email\": \"ada@example.com\"\n}")
		expectReplayOf(t, again, first)
		if first.Header.Get("X-Request-Id") == again.Header.Get("X-Request-Id") {
			t.Fatal("a replay repeats the first request's id; each request has its own")
		}

		for name, send := range map[string]func() testenv.Response{
			"another body": func() testenv.Response {
				return api.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"})
			},
			"another value": func() testenv.Response {
				return api.Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com", "firstName": "Adah"})
			},
			"another path": func() testenv.Response {
				return api.Post(t, "/api/v1/enrollments", map[string]any{"studentId": "stu_x", "courseId": "crs_x"})
			},
			"another query": func() testenv.Response {
				return api.Post(t, "/api/v1/students?x=1", `{"email":"ada@example.com","firstName":"Ada","metadata":{"a":"1","b":"2"}}`)
			},
		} {
			r := send()
			expectInvalid(t, r, idemHeader)
			if !strings.Contains(r.JSON(t)["error"].(map[string]any)["message"].(string), "another request") {
				t.Fatalf("%s: message does not say why: %s", name, r.Body)
			}
		}
		if evs := env.OutboxEventsOfType(t, events.StudentCreated); len(evs) != 1 {
			t.Fatalf("%d student.created events, want 1 (replays and refusals emit nothing)", len(evs))
		}
		// Without the header the endpoint is as before: the existing student, 200.
		env.API(env.LearningKey(t, ws)).Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}).Expect(t, http.StatusOK)
	})
}

// An error is not stored: the transaction rolled back, the key stays free, and a retry
// with the same key runs again (here it succeeds once the cause is fixed).
func TestIdempotencyErrorsAreNotReplayed(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreateCourse(t, ws, "Draft for now")
		enroll := api.WithHeader(idemHeader, "enroll-ada")
		body := map[string]string{"studentId": student, "courseId": course}

		failed := enroll.Post(t, "/api/v1/enrollments", body)
		expectInvalid(t, failed, "courseId") // not published yet
		if replayed(t, failed) || idempotencyRows(t, env, ws) != 0 {
			t.Fatalf("an error was stored or marked replayed: %s", failed.Body)
		}
		env.PublishCourse(t, ws, course)
		created := enroll.Post(t, "/api/v1/enrollments", body).Expect(t, http.StatusCreated)
		if replayed(t, created) {
			t.Fatal("the retry after an error was replayed instead of run")
		}
		expectReplayOf(t, enroll.Post(t, "/api/v1/enrollments", body), created)
		// Without the key the endpoint's own idempotency answers 200 with the same enrollment.
		var plain, first struct{ ID string }
		api.Post(t, "/api/v1/enrollments", body).Expect(t, http.StatusOK).Decode(t, &plain)
		created.Decode(t, &first)
		if plain.ID != first.ID {
			t.Fatalf("enrollment %s, want %s", plain.ID, first.ID)
		}
		if evs := env.OutboxEventsOfType(t, events.EnrollmentCreated); len(evs) != 1 {
			t.Fatalf("%d enrollment.created events, want 1", len(evs))
		}

		// A body the endpoint refuses is not stored either: the same key then runs a good one.
		students := api.WithHeader(idemHeader, "student-1")
		expectInvalid(t, students.Post(t, "/api/v1/students", map[string]any{"email": "not an address"}), "email")
		students.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"}).Expect(t, http.StatusCreated)
	})
}

// A record belongs to one API key: another key of the workspace, or a key of another
// workspace, uses the same value for its own request and never sees the first answer.
func TestIdempotencyKeysAreScopedToTheAPIKey(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Academy"), env.CreateWorkspace(t, "Other")
		keyA := env.API(env.LearningKey(t, ws)).WithHeader(idemHeader, "shared-value")
		keyB := env.API(env.LearningKey(t, ws)).WithHeader(idemHeader, "shared-value")
		keyC := env.API(env.LearningKey(t, other)).WithHeader(idemHeader, "shared-value")

		a := keyA.Post(t, "/api/v1/students", map[string]any{"email": "a@example.com"}).Expect(t, http.StatusCreated)
		b := keyB.Post(t, "/api/v1/students", map[string]any{"email": "b@example.com"}).Expect(t, http.StatusCreated)
		c := keyC.Post(t, "/api/v1/students", map[string]any{"email": "a@example.com"}).Expect(t, http.StatusCreated)
		for _, r := range []testenv.Response{a, b, c} {
			if replayed(t, r) {
				t.Fatalf("another key's record was replayed: %s", r.Body)
			}
		}
		if bytes.Equal(a.Body, c.Body) {
			t.Fatal("another workspace got the first workspace's answer")
		}
		expectReplayOf(t, keyA.Post(t, "/api/v1/students", map[string]any{"email": "a@example.com"}), a)
		expectReplayOf(t, keyB.Post(t, "/api/v1/students", map[string]any{"email": "b@example.com"}), b)
		expectReplayOf(t, keyC.Post(t, "/api/v1/students", map[string]any{"email": "a@example.com"}), c)
	})
}

// The header is optional; when sent it is one value of 1 to 255 printable ASCII
// characters, else 422 naming it, before anything runs.
func TestIdempotencyKeyHeaderIsValidated(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		body := map[string]any{"email": "ada@example.com"}
		for name, value := range map[string]string{
			"empty":     "",
			"too long":  strings.Repeat("k", 256),
			"non-ASCII": "clé-1",
			"control":   "key\x7f",
		} {
			t.Run(name, func(t *testing.T) {
				expectInvalid(t, api.WithHeader(idemHeader, value).Post(t, "/api/v1/students", body), idemHeader)
			})
		}
		expectInvalid(t, api.WithHeader(idemHeader, "one").AddHeader(idemHeader, "two").Post(t, "/api/v1/students", body), idemHeader)
		if evs := env.OutboxEventsOfType(t, events.StudentCreated); len(evs) != 0 {
			t.Fatalf("a refused header still created %d students", len(evs))
		}
		longest := api.WithHeader(idemHeader, strings.Repeat("~", 255))
		first := longest.Post(t, "/api/v1/students", body).Expect(t, http.StatusCreated)
		expectReplayOf(t, longest.Post(t, "/api/v1/students", body), first)
		spaced := api.WithHeader(idemHeader, `"quoted value" with spaces`)
		spaced.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"}).Expect(t, http.StatusCreated)
		// GET takes no key: the header is ignored there.
		api.WithHeader(idemHeader, "").Get(t, "/api/v1/students").Expect(t, http.StatusOK)
	})
}

// The write-only key's answer for an existing address (its id only) is stored and
// replayed as it was: a replay never shows more than the first answer did.
func TestIdempotencyReplaysTheWriteOnlyKeysReference(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		env.CreateStudent(t, ws, "ada@example.com")
		_, writeOnly := env.CreateKey(t, ws, "write:students")
		api := env.API(writeOnly).WithHeader(idemHeader, "landing-42")
		first := api.Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}).Expect(t, http.StatusOK)
		if got := first.JSON(t); len(got) != 1 || got["id"] == nil {
			t.Fatalf("write-only key got %s, want only the id", first.Body)
		}
		expectReplayOf(t, api.Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}), first)
	})
}

// A replay is a request: the rate-limit guard counts it before the key is looked at.
func TestIdempotencyReplaysCountAgainstTheRateLimit(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, secret := env.CreateKeyWithQuota(t, ws, 3, 100, "write:students")
		api := env.API(secret).WithHeader(idemHeader, "k")
		body := map[string]any{"email": "ada@example.com"}
		first := api.Post(t, "/api/v1/students", body).Expect(t, http.StatusCreated)
		second := api.Post(t, "/api/v1/students", body)
		expectReplayOf(t, second, first)
		if got := [2]string{first.Header.Get("X-RateLimit-Remaining"), second.Header.Get("X-RateLimit-Remaining")}; got != [2]string{"2", "1"} {
			t.Fatalf("X-RateLimit-Remaining %v, want [2 1]", got)
		}
		api.Post(t, "/api/v1/students", body).Expect(t, http.StatusCreated)
		api.Post(t, "/api/v1/students", body).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
	})
}

// Records answer for 24 hours: a day and a second later the key is free again (even
// before the purge ran), and the hourly purge deletes records older than that, keeping
// younger ones.
func TestIdempotencyRecordsExpireAfter24Hours(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var idem idempotency.Application
		env := testenv.Start(t, dbURL, fx.Populate(&idem))
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		old := api.WithHeader(idemHeader, "old")
		first := old.Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}).Expect(t, http.StatusCreated)
		env.Clock.Advance(idempotency.Window - time.Second)
		expectReplayOf(t, old.Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}), first)
		expectInvalid(t, old.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"}), idemHeader)
		young := api.WithHeader(idemHeader, "young")
		kept := young.Post(t, "/api/v1/students", map[string]any{"email": "young@example.com"}).Expect(t, http.StatusCreated)

		env.Clock.Advance(2 * time.Second)
		if n := idempotencyRows(t, env, ws); n != 2 {
			t.Fatalf("%d records before the purge, want 2", n)
		}
		purged, err := idem.Purge.Handle(context.Background())
		if err != nil || purged != 1 {
			t.Fatalf("purge: %d records, %v; want 1", purged, err)
		}
		if n := idempotencyRows(t, env, ws); n != 1 {
			t.Fatalf("%d records after the purge, want 1", n)
		}
		expectReplayOf(t, young.Post(t, "/api/v1/students", map[string]any{"email": "young@example.com"}), kept)
		fresh := old.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"}).Expect(t, http.StatusCreated)
		if replayed(t, fresh) {
			t.Fatal("an expired key was replayed")
		}
	})
}

// An expired record that the purge has not reached yet is taken over in place: the
// key runs the new request, and its answer is what a repeat gets from then on.
func TestIdempotencyExpiredRecordIsTakenOver(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws)).WithHeader(idemHeader, "reused-tomorrow")
		api.Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}).Expect(t, http.StatusCreated)
		env.Clock.Advance(idempotency.Window + time.Second)
		second := api.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"}).Expect(t, http.StatusCreated)
		if replayed(t, second) {
			t.Fatal("an expired record was replayed")
		}
		expectReplayOf(t, api.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"}), second)
		if n := idempotencyRows(t, env, ws); n != 1 {
			t.Fatalf("%d records, want 1 (taken over in place)", n)
		}
	})
}

// Enrollments too: concurrent identical POSTs with one key give one enrollment, one
// event and one answer (201), however the endpoint's own idempotency would answer.
func TestIdempotencyConcurrentEnrollments(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreatePublishedCourse(t, ws, "Races")
		api := env.API(env.LearningKey(t, ws)).WithHeader(idemHeader, "enroll-ada-races")
		const n = 10
		answers := make([]testenv.Response, n)
		contracttest.Parallel(n, func(i int) error {
			answers[i] = api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course})
			return nil
		})
		replays := 0
		for i, r := range answers {
			if r.Status != http.StatusCreated || !bytes.Equal(r.Body, answers[0].Body) {
				t.Fatalf("answer %d: %d %s", i, r.Status, r.Body)
			}
			if replayed(t, r) {
				replays++
			}
		}
		if replays != n-1 {
			t.Fatalf("%d replays, want %d", replays, n-1)
		}
		if evs := env.OutboxEventsOfType(t, events.EnrollmentCreated); len(evs) != 1 {
			t.Fatalf("%d enrollment.created events, want 1", len(evs))
		}
	})
}
