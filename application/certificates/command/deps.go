// Package command issues certificates.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/certificates"
)

// StudentDirectory tells whether a student exists in a workspace (a port onto the students module).
type StudentDirectory interface {
	Exists(ctx context.Context, workspaceID, studentID string) (bool, error)
}

// Completions tell how far a student got in a course (a port onto the enrollments module).
type Completions interface {
	// Of returns the student's enrollment in the course, or nil when there is none.
	Of(ctx context.Context, workspaceID, studentID, courseID string) (*certificates.Completion, error)
}

// Store reads back issued certificates.
type Store interface {
	certificates.Repository
	// Find returns the certificate of the student for the course, or kernel NotFound.
	Find(ctx context.Context, workspaceID, studentID, courseID string) (*certificates.Certificate, error)
}

// Deps are the ports of the certificate commands.
type Deps struct {
	platform.Kit // Tx, Publisher, IDs, Clock, Observer
	Repo         Store
	Workspaces   platform.WorkspaceDirectory
	Students     StudentDirectory
	Completions  Completions
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	return platform.RequireWorkspace(ctx, d.Workspaces, workspaceID)
}
