package events

import (
	"encoding/json"
	"fmt"
)

// Contract binds an event type to its one payload type P and to the version of P's
// schema. Producers build events only through a contract and consumers read them only
// through the same one, so the shape is written once; the golden webhook bodies
// (tests/testdata/events) hold it to the bytes receivers get.
type Contract[P any] struct {
	Type    Type
	Version int
}

var versions = map[Type]int{}

// define registers the contract of t; a type has exactly one.
func define[P any](t Type, version int) Contract[P] {
	if _, dup := versions[t]; dup {
		panic("events: two contracts for " + string(t))
	}
	versions[t] = version
	return Contract[P]{Type: t, Version: version}
}

// VersionOf is the schema version of t's payload (0 for a type without a contract).
// The outbox stamps it in each message's metadata.
func VersionOf(t Type) int { return versions[t] }

// New is the event about p in workspace, built from the aggregate the use case changed.
func (c Contract[P]) New(workspaceID string, p P) Event {
	return Event{Type: c.Type, WorkspaceID: workspaceID, Data: p}
}

// Decode reads the payload of env, which must be of c's type.
func (c Contract[P]) Decode(env Envelope) (P, error) {
	var p P
	if env.Type != c.Type {
		return p, fmt.Errorf("decode %s: the event is %s", c.Type, env.Type)
	}
	if err := json.Unmarshal(env.Data, &p); err != nil {
		return p, fmt.Errorf("decode %s data (schema v%d): %w", c.Type, c.Version, err)
	}
	return p, nil
}

// The contracts, one per type. A change to a payload's JSON is a new version.
var (
	StudentCreatedV1 = define[Student](StudentCreated, 1)
	StudentUpdatedV1 = define[Student](StudentUpdated, 1)
	StudentDeletedV1 = define[Student](StudentDeleted, 1)

	EnrollmentCreatedV1   = define[Enrollment](EnrollmentCreated, 1)
	EnrollmentRevokedV1   = define[Enrollment](EnrollmentRevoked, 1)
	EnrollmentCompletedV1 = define[Enrollment](EnrollmentCompleted, 1)
	LessonCompletedV1     = define[LessonProgress](LessonCompleted, 1)

	OrderPaidV1     = define[Order](OrderPaid, 1)
	OrderRefundedV1 = define[Order](OrderRefunded, 1)

	CoursePublishedV1 = define[CourseDetail](CoursePublished, 1)
	CourseArchivedV1  = define[CourseDetail](CourseArchived, 1)

	LiveSessionStartedV1 = define[LiveSession](LiveSessionStarted, 1)
	LiveSessionEndedV1   = define[LiveSession](LiveSessionEnded, 1)
	RecordingReadyV1     = define[Recording](RecordingReady, 1)

	CertificateIssuedV1 = define[Certificate](CertificateIssued, 1)
)
