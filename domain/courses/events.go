package courses

import "time"

// EventKind names what happened to a course.
type EventKind string

// Course events.
const (
	EventPublished EventKind = "published"
	EventArchived  EventKind = "archived"
)

// Event is a domain fact; the application turns it into a published event contract.
type Event struct {
	Kind     EventKind
	CourseID string
	At       time.Time
}
