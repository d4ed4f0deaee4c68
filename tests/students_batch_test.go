package tests

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
	"github.com/google/go-cmp/cmp"
)

type batchResultJSON struct {
	Index   int          `json:"index"`
	Status  string       `json:"status"`
	ID      string       `json:"id"`
	Student *studentJSON `json:"student"`
	Error   *struct {
		Code, Message, Param string
	} `json:"error"`
}

type batchJSON struct {
	Results []batchResultJSON `json:"results"`
	Counts  map[string]int    `json:"counts"`
}

// POST /api/v1/students/batch: every kind of outcome in one request, in input order,
// one event per changed student, one request against the limits.
func TestStudentBatchUpsertMixedResultsInOrder(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Academy"), env.CreateWorkspace(t, "Other")
		_, key := env.CreateKeyWithQuota(t, ws, 60, 1000, "read:students", "write:students")
		_, foreign := env.CreateKeyWithQuota(t, other, 60, 1000, "read:students", "write:students")
		create := func(body map[string]any) string {
			var s studentJSON
			env.API(key).Post(t, "/api/v1/students", body).Expect(t, http.StatusCreated).Decode(t, &s)
			return s.ID
		}
		a := create(map[string]any{"email": "a@example.com", "externalId": "crm-a", "lastName": "L"})
		b := create(map[string]any{"email": "b@example.com"})
		c := create(map[string]any{"email": "c@example.com", "externalId": "crm-c"})
		create(map[string]any{"email": "d1@example.com", "externalId": "dup"})
		create(map[string]any{"email": "d2@example.com", "externalId": "dup"})
		createdBefore := len(env.OutboxEventsOfType(t, events.StudentCreated))

		items := []any{
			map[string]any{"email": "new1@example.com", "firstName": "New"},                                            // 0 created
			map[string]any{"email": "B@example.com", "firstName": "Bee"},                                               // 1 updated (b, by address)
			map[string]any{"externalId": "crm-a", "lastName": "L"},                                                     // 2 unchanged
			map[string]any{"email": "not-an-address"},                                                                  // 3 failed: email
			map[string]any{"externalId": "crm-a", "email": "c@example.com"},                                            // 4 failed: c has the address
			map[string]any{"externalId": "dup", "firstName": "X"},                                                      // 5 failed: ambiguous
			map[string]any{"externalId": "crm-zzz"},                                                                    // 6 failed: nothing to update, no email to create
			map[string]any{},                                                                                           // 7 failed: names no student
			map[string]any{"email": "x@example.com", "bogus": 1},                                                       // 8 failed: unknown field
			map[string]any{"email": "new2@example.com", "externalId": "crm-new", "metadata": map[string]any{"k": "v"}}, // 9 created
			map[string]any{"externalId": "crm-new", "firstName": "Later", "metadata": map[string]any{"k": nil}},        // 10 updated (9's)
		}
		resp := env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": items}).Expect(t, http.StatusOK)
		if got := resp.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(60-5-1) {
			t.Fatalf("X-RateLimit-Remaining %s after 5 creates and one batch, want %d: a batch is one request", got, 60-5-1)
		}
		var out batchJSON
		resp.Decode(t, &out)
		want := []struct{ status, param string }{
			{"created", ""}, {"updated", ""}, {"unchanged", ""}, {"failed", "items[3].email"}, {"failed", "items[4].email"},
			{"failed", "items[5].externalId"}, {"failed", "items[6].email"}, {"failed", "items[7].email"}, {"failed", "items[8].bogus"},
			{"created", ""}, {"updated", ""},
		}
		if len(out.Results) != len(want) {
			t.Fatalf("%d results for %d items: %s", len(out.Results), len(want), resp.Body)
		}
		for i, w := range want {
			r := out.Results[i]
			if r.Index != i || r.Status != w.status {
				t.Errorf("item %d: index %d status %s, want %s", i, r.Index, r.Status, w.status)
			}
			if w.param != "" && (r.Error == nil || r.Error.Code != "invalid_request" || r.Error.Param != w.param || r.ID != "" || r.Student != nil) {
				t.Errorf("item %d: %+v, want invalid_request naming %s and no student", i, r.Error, w.param)
			}
			if w.param == "" && (r.Error != nil || r.Student == nil || r.ID != r.Student.ID) {
				t.Errorf("item %d: error %+v, student %+v", i, r.Error, r.Student)
			}
		}
		if t.Failed() {
			t.Fatalf("body %s", resp.Body)
		}
		if out.Results[1].ID != b || out.Results[1].Student.FirstName != "Bee" || out.Results[2].ID != a || out.Results[10].ID != out.Results[9].ID ||
			out.Results[10].Student.FirstName != "Later" || len(out.Results[10].Student.Metadata) != 0 || out.Results[9].Student.ExternalID != "crm-new" {
			t.Fatalf("results %s", resp.Body)
		}
		if diff := cmp.Diff(map[string]int{"created": 2, "updated": 2, "unchanged": 1, "failed": 6}, out.Counts); diff != "" {
			t.Fatalf("counts (-want +got):\n%s", diff)
		}

		// One event per change: 2 created, 2 updated (b and the new crm-new student).
		if n := len(env.OutboxEventsOfType(t, events.StudentCreated)) - createdBefore; n != 2 {
			t.Fatalf("%d student.created from the batch, want 2", n)
		}
		if n := len(env.OutboxEventsOfType(t, events.StudentUpdated)); n != 2 {
			t.Fatalf("%d student.updated from the batch, want 2", n)
		}
		// A failed item changed nothing: c keeps its address, a keeps its own.
		var got studentJSON
		env.API(key).Get(t, "/api/v1/students/"+c).Expect(t, http.StatusOK).Decode(t, &got)
		if got.Email != "c@example.com" {
			t.Fatalf("c after item 4: %+v", got)
		}
		env.API(key).Get(t, "/api/v1/students/"+a).Expect(t, http.StatusOK).Decode(t, &got)
		if got.Email != "a@example.com" {
			t.Fatalf("a after item 4: %+v", got)
		}

		// The same batch again: what was applied is unchanged, nothing is emitted.
		var again batchJSON
		env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": items[:3]}).Expect(t, http.StatusOK).Decode(t, &again)
		for i, r := range again.Results {
			if r.Status != "unchanged" {
				t.Fatalf("replayed item %d: %s", i, r.Status)
			}
		}
		if n := len(env.OutboxEventsOfType(t, events.StudentUpdated)); n != 2 {
			t.Fatalf("replay emitted: %d student.updated", n)
		}

		// Another workspace: its own student for the same address, none of ours changes.
		var theirs batchJSON
		env.API(foreign).Post(t, "/api/v1/students/batch", map[string]any{"items": []any{
			map[string]any{"email": "a@example.com", "firstName": "Theirs"}, map[string]any{"externalId": "crm-c", "firstName": "Theirs"},
		}}).Expect(t, http.StatusOK).Decode(t, &theirs)
		if theirs.Results[0].Status != "created" || theirs.Results[0].ID == a || theirs.Results[1].Status != "failed" {
			t.Fatalf("other workspace's batch %+v", theirs.Results)
		}
		env.API(key).Get(t, "/api/v1/students/"+a).Expect(t, http.StatusOK).Decode(t, &got)
		if got.FirstName == "Theirs" {
			t.Fatal("another workspace's batch changed our student")
		}
	})
}

// The request's own rules: 1..100 items, JSON, the scope; a write-only key sees only
// the ids of students that existed.
func TestStudentBatchRequestRules(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		key := env.LearningKey(t, ws)
		_, writeOnly := env.CreateKey(t, ws, "write:students")
		_, readOnly := env.CreateKey(t, ws, "read:students")
		existing := env.CreateStudent(t, ws, "known@example.com")

		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": []any{}}), "items")
		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", map[string]any{}), "items")
		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": "x"}), "items")
		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": []any{}, "extra": 1}), "extra")
		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", `{"items": [`), "body")
		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": []any{map[string]any{"email": "ok@example.com"}, "x"}}), "items[1]")
		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": []any{nil}}), "items[0]")
		over := make([]any, 101)
		for i := range over {
			over[i] = map[string]any{"email": fmt.Sprintf("s%d@example.com", i)}
		}
		expectInvalid(t, env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": over}), "items")
		env.API(readOnly).Post(t, "/api/v1/students/batch", map[string]any{"items": over[:1]}).ExpectError(t, http.StatusForbidden, "forbidden")
		if n := len(env.OutboxEventsOfType(t, events.StudentCreated)); n != 1 {
			t.Fatalf("refused batches created students: %d student.created", n)
		}

		// 100 items is the most, and they are all applied.
		start := time.Now()
		var full batchJSON
		env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": over[:100]}).Expect(t, http.StatusOK).Decode(t, &full)
		t.Logf("100 new students in one batch: %s", time.Since(start).Round(time.Millisecond))
		if full.Counts["created"] != 100 || len(env.OutboxEventsOfType(t, events.StudentCreated)) != 101 {
			t.Fatalf("counts %v", full.Counts)
		}
		start = time.Now()
		env.API(key).Post(t, "/api/v1/students/batch", map[string]any{"items": over[:100]}).Expect(t, http.StatusOK).Decode(t, &full)
		t.Logf("the same 100 again (unchanged): %s", time.Since(start).Round(time.Millisecond))
		if full.Counts["unchanged"] != 100 {
			t.Fatalf("counts of a replay %v", full.Counts)
		}

		// A write-only key: the record of what it created, the id of what existed.
		var out batchJSON
		env.API(writeOnly).Post(t, "/api/v1/students/batch", map[string]any{"items": []any{
			map[string]any{"email": "fresh@example.com"}, map[string]any{"email": "known@example.com", "firstName": "K"},
		}}).Expect(t, http.StatusOK).Decode(t, &out)
		if out.Results[0].Status != "created" || out.Results[0].Student == nil ||
			out.Results[1].Status != "updated" || out.Results[1].ID != existing || out.Results[1].Student != nil {
			t.Fatalf("write-only results %+v", out.Results)
		}
	})
}
