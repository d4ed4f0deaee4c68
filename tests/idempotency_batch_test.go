package tests

import (
	"net/http"
	"slices"
	"testing"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A batch sent with an Idempotency-Key runs in the request's one transaction (the record
// is written with the changes), yet each item still fails alone: an item whose update
// breaks the address's uniqueness (on PostgreSQL a failed statement aborts the whole
// transaction) is rolled back to its savepoint, the items after it apply, and the retry
// replays the answer without a second event.
func TestIdempotencyKeyedBatchItemsStillFailAlone(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 60, 1000, "read:students", "write:students")
		env.API(key).Post(t, "/api/v1/students", map[string]any{"email": "a@example.com", "externalId": "crm-a"}).Expect(t, http.StatusCreated)
		env.API(key).Post(t, "/api/v1/students", map[string]any{"email": "c@example.com"}).Expect(t, http.StatusCreated)
		createdBefore := len(env.OutboxEventsOfType(t, events.StudentCreated))

		items := map[string]any{"items": []any{
			map[string]any{"email": "new1@example.com"},                     // created
			map[string]any{"externalId": "crm-a", "email": "c@example.com"}, // failed: c has the address
			map[string]any{"email": "new2@example.com"},                     // created, after the failure
			map[string]any{"externalId": "crm-a", "firstName": "Ada"},       // updated, after the failure
		}}
		api := env.API(key).WithHeader(idemHeader, "sync-run-1")
		first := api.Post(t, "/api/v1/students/batch", items).Expect(t, http.StatusOK)
		var out batchJSON
		first.Decode(t, &out)
		var got []string
		for _, r := range out.Results {
			got = append(got, r.Status)
		}
		if want := []string{"created", "failed", "created", "updated"}; !slices.Equal(got, want) {
			t.Fatalf("statuses %v, want %v: %s", got, want, first.Body)
		}
		if out.Results[1].Error == nil || out.Results[1].Error.Param != "items[1].email" {
			t.Fatalf("item 1's error %+v", out.Results[1].Error)
		}

		expectReplayOf(t, api.Post(t, "/api/v1/students/batch", items), first)
		if n := len(env.OutboxEventsOfType(t, events.StudentCreated)) - createdBefore; n != 2 {
			t.Fatalf("%d student.created after the batch and its replay, want 2", n)
		}
		if n := len(env.OutboxEventsOfType(t, events.StudentUpdated)); n != 1 {
			t.Fatalf("%d student.updated after the batch and its replay, want 1", n)
		}
		var a studentJSON
		env.API(key).Get(t, "/api/v1/students/"+out.Results[3].ID).Expect(t, http.StatusOK).Decode(t, &a)
		if a.Email != "a@example.com" || a.FirstName != "Ada" {
			t.Fatalf("crm-a after the batch: %+v (the failed item's address change must be undone)", a)
		}
	})
}
