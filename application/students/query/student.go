// Package query reads students as integrators see them: the profile with its
// enrollment history and progress.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/students"
)

// A student as the API shows it is the payload of the student.* events: one shape,
// published in application/events.
type (
	Student    = events.Student
	Enrollment = events.StudentEnrollment
	Progress   = events.Progress
)

// Filter narrows the list; zero values do not filter.
type Filter struct {
	// Email matches exactly, case-insensitively.
	Email string
	// ExternalID matches exactly (the CRM's own id; several students may share one).
	ExternalID string
	// UpdatedSince keeps students with updatedAt at or after it.
	UpdatedSince *time.Time
}

// ReadModel reads the module's own table: profiles, as aggregates; what other modules
// add to a student's page (its enrollments) comes from History. Every method is scoped
// to one workspace and never shows deleted students.
type ReadModel interface {
	// List returns one keyset page, newest first (created_at DESC, id DESC).
	List(ctx context.Context, workspaceID string, f Filter, page platform.PageRequest) (platform.Page[*students.Student], error)
	// Get returns kernel NotFound when the student is not in the workspace.
	Get(ctx context.Context, workspaceID, id string) (*students.Student, error)
	// GetByEmail finds the live student with this address (case-insensitively), or NotFound.
	GetByEmail(ctx context.Context, workspaceID, email string) (*students.Student, error)
}
