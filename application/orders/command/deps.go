// Package command records paid orders and their refunds.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// StudentDirectory tells whether a student exists in a workspace (a port onto the students module).
type StudentDirectory interface {
	Exists(ctx context.Context, workspaceID, studentID string) (bool, error)
}

// CourseCatalog gives the titles of the published courses among ids (a port onto the
// courses module); a course missing from the answer is not sellable.
type CourseCatalog interface {
	PublishedTitles(ctx context.Context, workspaceID string, ids []string) (map[string]string, error)
}

// Entitlements grants and revokes course access (a port onto the enrollments module).
// Both join the caller's transaction and emit the enrollment events themselves.
type Entitlements interface {
	// Grant creates (or reactivates) the student's enrollment in the course.
	Grant(ctx context.Context, workspaceID, studentID, courseID string) (enrollmentID string, err error)
	// Revoke revokes the enrollment.
	Revoke(ctx context.Context, workspaceID, enrollmentID string) error
}

// Deps are the ports every order command uses.
type Deps struct {
	platform.Kit // Tx, Publisher, IDs, Clock, Observer
	Repo         orders.Repository
	ReadModel    query.ReadModel
	Workspaces   platform.WorkspaceDirectory
	Students     StudentDirectory
	Courses      CourseCatalog
	Entitlements Entitlements
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	return platform.RequireWorkspace(ctx, d.Workspaces, workspaceID)
}
