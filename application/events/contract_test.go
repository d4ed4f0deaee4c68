package events

import (
	"encoding/json"
	"testing"
	"time"
)

// Every type receivers or modules can see has exactly one contract with a version.
func TestEveryTypeHasAContract(t *testing.T) {
	for _, typ := range append(append(WebhookTypes(), LessonCompleted), EnrollmentCompleted) {
		if VersionOf(typ) < 1 {
			t.Errorf("%s has no contract", typ)
		}
	}
	if len(versions) != len(PublicTypes)+2+len(OperationalTypes) {
		t.Errorf("%d contracts for %d types", len(versions), len(PublicTypes)+2+len(OperationalTypes))
	}
}

func TestContractRoundTripAndTypeCheck(t *testing.T) {
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	ev := EnrollmentRevokedV1.New("org_1", Enrollment{ID: "enr_1", Status: "revoked", RevokedAt: &at})
	data, err := json.Marshal(ev.Data)
	if err != nil {
		t.Fatal(err)
	}
	env := Envelope{ID: "evt_1", Type: ev.Type, WorkspaceID: ev.WorkspaceID, Data: data}
	got, err := EnrollmentRevokedV1.Decode(env)
	if err != nil || got.ID != "enr_1" || got.RevokedAt == nil || !got.RevokedAt.Equal(at) {
		t.Fatalf("decoded %+v, %v", got, err)
	}
	if _, err := EnrollmentCreatedV1.Decode(env); err == nil {
		t.Fatal("an enrollment.revoked decoded as enrollment.created")
	}
	env.Data = json.RawMessage(`{"id": 7}`)
	if _, err := EnrollmentRevokedV1.Decode(env); err == nil {
		t.Fatal("a malformed payload decoded")
	}
}
