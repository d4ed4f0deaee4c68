// Package query reads students as integrators see them: the profile with its
// enrollment history and progress.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Student is the API shape of a student. UpdatedAt moves whenever the profile or
// anything embedded (an enrollment, its progress) changes.
type Student struct {
	ID          string            `json:"id"`
	Email       string            `json:"email"`
	FirstName   string            `json:"firstName"`
	LastName    string            `json:"lastName"`
	ExternalID  string            `json:"externalId"`
	Metadata    map[string]string `json:"metadata"`
	CreatedAt   time.Time         `json:"createdAt"`
	UpdatedAt   time.Time         `json:"updatedAt"`
	Enrollments []Enrollment      `json:"enrollments"`
}

// Enrollment is one entry of a student's enrollment history, oldest first.
type Enrollment struct {
	ID          string     `json:"id"`
	CourseID    string     `json:"courseId"`
	Status      string     `json:"status"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt"`
	CompletedAt *time.Time `json:"completedAt"`
	Progress    Progress   `json:"progress"`
}

// Progress counts completed lessons of the course. Percent is an integer 0..100,
// floor(completedLessons*100/totalLessons), 0 when the course has no lessons.
type Progress struct {
	CompletedLessons int `json:"completedLessons"`
	TotalLessons     int `json:"totalLessons"`
	Percent          int `json:"percent"`
}

// Filter narrows the list; zero values do not filter.
type Filter struct {
	// Email matches exactly, case-insensitively.
	Email string
	// UpdatedSince keeps students with updatedAt at or after it.
	UpdatedSince *time.Time
}

// ReadModel answers student queries; every method is scoped to one workspace and
// never shows deleted students.
type ReadModel interface {
	List(ctx context.Context, workspaceID string, f Filter, page platform.PageRequest) (platform.Page[Student], error)
	// Get returns kernel NotFound when the student is not in the workspace.
	Get(ctx context.Context, workspaceID, id string) (Student, error)
	// GetByEmail finds the live student with this address (case-insensitively), or NotFound.
	GetByEmail(ctx context.Context, workspaceID, email string) (Student, error)
}
