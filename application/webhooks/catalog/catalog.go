// Package catalog describes the event types for people building receivers (the 13 public
// types and the operational ones):
// what causes each, when it is sent, and an example of its data. The dashboard's event
// catalogue shows these examples and "Send test event" sends them, so what an integrator
// reads is what their receiver gets. tests/webhook_catalog_test.go checks each example
// against the JSON shape of the type's real producer.
package catalog

import (
	"encoding/json"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
)

// Entry is one event type of the catalogue.
type Entry struct {
	Type string
	// Cause says what causes it and, after "Routes:", every route that emits it, public
	// (/api/v1) or operator (/internal/v1): tests/webhook_catalog_routes_test.go checks
	// that each is mounted.
	Cause string
	When  string // when it is sent
	Data  json.RawMessage
}

// sent is when every event is sent: they are recorded with the change that caused them.
const sent = "Within seconds of the change: the event is recorded in the change's transaction and delivered from there."

// Entries lists the catalogue in the specification's order (events.PublicTypes), then
// the operational types (events.OperationalTypes, operational.go).
var Entries = append(public, operational...)

var public = []Entry{
	{Type: string(events.StudentCreated), Cause: "A student was created. Routes: POST /api/v1/students, POST /api/v1/students/batch (an item that creates); operator POST /internal/v1/workspaces/{org}/students.", When: sent, Data: raw(studentExample)},
	{Type: string(events.StudentUpdated), Cause: "A student's profile or metadata changed (not sent when a request changed nothing). Routes: PATCH /api/v1/students/{id}, POST /api/v1/students/batch (an item that updates); operator PATCH /internal/v1/workspaces/{org}/students/{id}.", When: sent, Data: raw(studentExample)},
	{Type: string(events.StudentDeleted), Cause: "A student was deleted; data is the student as it was. Routes: operator DELETE /internal/v1/workspaces/{org}/students/{id}.", When: sent, Data: raw(studentExample)},
	{Type: string(events.EnrollmentCreated), Cause: "A student was enrolled in a course, by the API or by a paid order. Routes: POST /api/v1/enrollments; operator POST /internal/v1/workspaces/{org}/enrollments, POST /internal/v1/workspaces/{org}/orders (each course granted).", When: sent, Data: raw(enrollmentExample)},
	{Type: string(events.EnrollmentRevoked), Cause: "An enrollment was revoked, by the API or by a full refund. Routes: DELETE /api/v1/enrollments/{id}; operator POST /internal/v1/workspaces/{org}/enrollments/{id}/revoke, POST /internal/v1/workspaces/{org}/orders/{id}/refunds (a full refund).", When: sent, Data: raw(revokedEnrollmentExample)},
	{Type: string(events.OrderPaid), Cause: "An order was recorded as paid. Routes: operator POST /internal/v1/workspaces/{org}/orders.", When: sent, Data: raw(orderExample)},
	{Type: string(events.OrderRefunded), Cause: "An order was refunded in full or in part. Routes: operator POST /internal/v1/workspaces/{org}/orders/{id}/refunds.", When: sent, Data: raw(refundedOrderExample)},
	{Type: string(events.CoursePublished), Cause: "A course was published and can take enrollments. Routes: operator POST /internal/v1/workspaces/{org}/courses/{id}/publish.", When: sent, Data: raw(courseExample("published"))},
	{Type: string(events.CourseArchived), Cause: "A course was archived: no new enrollments. Routes: operator POST /internal/v1/workspaces/{org}/courses/{id}/archive.", When: sent, Data: raw(courseExample("archived"))},
	{Type: string(events.LiveSessionStarted), Cause: "A live session of a course started. Routes: operator POST /internal/v1/workspaces/{org}/live-sessions/{id}/start.", When: sent, Data: raw(liveExample("live"))},
	{Type: string(events.LiveSessionEnded), Cause: "A live session ended. Routes: operator POST /internal/v1/workspaces/{org}/live-sessions/{id}/end.", When: sent, Data: raw(liveExample("ended"))},
	{Type: string(events.RecordingReady), Cause: "The recording of a live session is ready to watch. Routes: operator POST /internal/v1/workspaces/{org}/recordings.", When: sent, Data: raw(recordingExample)},
	{Type: string(events.CertificateIssued), Cause: "A certificate was issued for a completed course. Routes: operator POST /internal/v1/workspaces/{org}/certificates.", When: sent, Data: raw(certificateExample)},
}

// Find returns the entry of type t.
func Find(t string) (Entry, bool) {
	for _, e := range Entries {
		if e.Type == t {
			return e, true
		}
	}
	return Entry{}, false
}

// Envelope is the example as a receiver gets it: the delivered envelope around the data.
func (e Entry) Envelope(eventID, workspaceID string, at time.Time) events.Envelope {
	return events.Envelope{ID: eventID, Type: events.Type(e.Type), CreatedAt: at.UTC(), WorkspaceID: workspaceID, Data: e.Data}
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

const studentExample = `{"id":"stu_01HZX3M4Q8W2E5R7T9Y1U3I5O7","livemode":true,"email":"ada@example.com","firstName":"Ada","lastName":"Lovelace",` +
	`"externalId":"crm-4711","metadata":{"plan":"pro"},"createdAt":"2026-01-15T09:30:00Z","updatedAt":"2026-01-15T09:30:00Z","enrollments":[]}`

const enrollmentExample = `{"id":"enr_01HZX3N2B4C6D8F0G2H4J6K8L0","livemode":true,"studentId":"stu_01HZX3M4Q8W2E5R7T9Y1U3I5O7","courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9",` +
	`"status":"active","source":"api","createdAt":"2026-01-15T09:31:00Z","revokedAt":null,"completedAt":null}`

const revokedEnrollmentExample = `{"id":"enr_01HZX3N2B4C6D8F0G2H4J6K8L0","livemode":true,"studentId":"stu_01HZX3M4Q8W2E5R7T9Y1U3I5O7","courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9",` +
	`"status":"revoked","source":"api","createdAt":"2026-01-15T09:31:00Z","revokedAt":"2026-02-01T12:00:00Z","completedAt":null}`

const orderExample = `{"id":"ord_01HZX3P5Q7R9S1T3U5V7W9X1Y3","livemode":true,"studentId":"stu_01HZX3M4Q8W2E5R7T9Y1U3I5O7","status":"paid","currency":"eur",` +
	`"amount":4900,"amountRefunded":0,"items":[{"courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9","title":"Analytical Engines","amount":4900}],` +
	`"entitlements":[{"courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9","enrollmentId":"enr_01HZX3N2B4C6D8F0G2H4J6K8L0","grantedAt":"2026-01-15T09:31:00Z","revokedAt":null}],` +
	`"receipt":{"number":"R-2026-000042"},"history":[{"type":"paid","amount":4900,"at":"2026-01-15T09:31:00Z"}],` +
	`"paidAt":"2026-01-15T09:31:00Z","refundedAt":null,"createdAt":"2026-01-15T09:31:00Z","updatedAt":"2026-01-15T09:31:00Z"}`

const refundedOrderExample = `{"id":"ord_01HZX3P5Q7R9S1T3U5V7W9X1Y3","livemode":true,"studentId":"stu_01HZX3M4Q8W2E5R7T9Y1U3I5O7","status":"refunded","currency":"eur",` +
	`"amount":4900,"amountRefunded":4900,"items":[{"courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9","title":"Analytical Engines","amount":4900}],` +
	`"entitlements":[{"courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9","enrollmentId":"enr_01HZX3N2B4C6D8F0G2H4J6K8L0","grantedAt":"2026-01-15T09:31:00Z","revokedAt":"2026-02-01T12:00:00Z"}],` +
	`"receipt":{"number":"R-2026-000042"},"history":[{"type":"paid","amount":4900,"at":"2026-01-15T09:31:00Z"},{"type":"refunded","amount":4900,"at":"2026-02-01T12:00:00Z"}],` +
	`"paidAt":"2026-01-15T09:31:00Z","refundedAt":"2026-02-01T12:00:00Z","createdAt":"2026-01-15T09:31:00Z","updatedAt":"2026-02-01T12:00:00Z"}`

func courseExample(status string) string {
	published, archived := `"2026-01-10T08:00:00Z"`, "null"
	if status == "archived" {
		archived = `"2026-03-01T08:00:00Z"`
	}
	return `{"id":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9","livemode":true,"slug":"analytical-engines","title":"Analytical Engines","description":"From the Difference Engine to the first program.",` +
		`"status":"` + status + `","publishedAt":` + published + `,"archivedAt":` + archived + `,"createdAt":"2026-01-05T08:00:00Z","updatedAt":"2026-01-10T08:00:00Z",` +
		`"moduleCount":1,"lessonCount":1,"modules":[{"id":"mod_01HZX2B2C4D6E8F0G2H4J6K8M0","title":"Foundations","position":1,` +
		`"lessons":[{"id":"lsn_01HZX2C3D5E7F9G1H3J5K7L9N1","title":"Bernoulli numbers","position":1,"type":"video","durationSeconds":600}]}]}`
}

func liveExample(status string) string {
	ended := "null"
	if status == "ended" {
		ended = `"2026-01-20T18:00:00Z"`
	}
	return `{"id":"liv_01HZX3R6S8T0U2V4W6X8Y0Z2A4","livemode":true,"courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9","title":"Office hours","status":"` + status + `",` +
		`"startedAt":"2026-01-20T17:00:00Z","endedAt":` + ended + `,"createdAt":"2026-01-18T10:00:00Z","updatedAt":"2026-01-20T17:00:00Z"}`
}

const recordingExample = `{"id":"rec_01HZX3S7T9U1V3W5X7Y9Z1A3B5","livemode":true,"liveSessionId":"liv_01HZX3R6S8T0U2V4W6X8Y0Z2A4","courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9",` +
	`"status":"ready","durationSeconds":3540,"createdAt":"2026-01-20T18:20:00Z"}`

const certificateExample = `{"id":"cer_01HZX3T8U0V2W4X6Y8Z0A2B4C6","livemode":true,"studentId":"stu_01HZX3M4Q8W2E5R7T9Y1U3I5O7","courseId":"crs_01HZX2A1S3D5F7G9H1J3K5L7Z9",` +
	`"enrollmentId":"enr_01HZX3N2B4C6D8F0G2H4J6K8L0","issuedAt":"2026-02-10T15:00:00Z"}`
