// Package events holds the published event contracts: the 13 public webhook types
// of the specification and the internal types other modules react to.
// Every event travels in the same envelope, the one webhook receivers get.
package events

import (
	"encoding/json"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Type is an event's stable name.
type Type string

// The public types: receivers subscribe to these.
const (
	StudentCreated     Type = "student.created"
	StudentUpdated     Type = "student.updated"
	StudentDeleted     Type = "student.deleted"
	EnrollmentCreated  Type = "enrollment.created"
	EnrollmentRevoked  Type = "enrollment.revoked"
	OrderPaid          Type = "order.paid"
	OrderRefunded      Type = "order.refunded"
	CoursePublished    Type = "course.published"
	CourseArchived     Type = "course.archived"
	LiveSessionStarted Type = "live_session.started"
	LiveSessionEnded   Type = "live_session.ended"
	RecordingReady     Type = "recording.ready"
	CertificateIssued  Type = "certificate.issued"
)

// PublicTypes lists the 13 webhook types in the specification's order.
var PublicTypes = []Type{
	StudentCreated, StudentUpdated, StudentDeleted,
	EnrollmentCreated, EnrollmentRevoked,
	OrderPaid, OrderRefunded,
	CoursePublished, CourseArchived,
	LiveSessionStarted, LiveSessionEnded,
	RecordingReady, CertificateIssued,
}

// IDPrefix prefixes event ids (evt_...).
const IDPrefix = "evt"

// IsPublic tells whether receivers may subscribe to t.
func IsPublic(t Type) bool {
	for _, p := range PublicTypes {
		if p == t {
			return true
		}
	}
	return false
}

// Event is what a use case publishes: the payload of its type's Contract (contract.go).
// The outbox stamps ID, CreatedAt and the contract's schema version (message metadata).
type Event struct {
	Type        Type
	WorkspaceID string
	Data        any
}

// New builds an event of type t with any data. Use cases publish through their type's
// Contract (StudentCreatedV1.New, ...); New remains for tests that need malformed events.
func New(t Type, workspaceID string, data any) Event {
	return Event{Type: t, WorkspaceID: workspaceID, Data: data}
}

// Envelope is the stored and delivered form, exactly the specification's webhook envelope.
type Envelope struct {
	ID          string          `json:"id"`
	Type        Type            `json:"type"`
	CreatedAt   time.Time       `json:"created_at"`
	WorkspaceID string          `json:"workspace_id"`
	Data        json.RawMessage `json:"data"`
}

// MarshalJSON writes the envelope with livemode (false for a sandbox's events) next to
// id. Livemode is derived from workspace_id on every write rather than stored, so that
// events recorded before sandboxes existed carry it too, and it can never disagree with
// the workspace.
func (e Envelope) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID          string          `json:"id"`
		Livemode    bool            `json:"livemode"`
		Type        Type            `json:"type"`
		CreatedAt   time.Time       `json:"created_at"`
		WorkspaceID string          `json:"workspace_id"`
		Data        json.RawMessage `json:"data"`
	}{e.ID, kernel.Livemode(e.WorkspaceID), e.Type, e.CreatedAt, e.WorkspaceID, e.Data})
}
