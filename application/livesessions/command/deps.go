// Package command schedules, starts and ends live sessions and records their recordings.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// WorkspaceDirectory tells whether a workspace exists (a port onto the workspaces module).
type WorkspaceDirectory interface {
	Exists(ctx context.Context, workspaceID string) (bool, error)
}

// CourseDirectory tells whether a course exists in a workspace (a port onto the courses module).
type CourseDirectory interface {
	Exists(ctx context.Context, workspaceID, courseID string) (bool, error)
}

// Deps are the ports every live-session command uses.
type Deps struct {
	Tx         platform.Transactor
	Sessions   livesessions.Repository
	Recordings livesessions.Recordings
	Courses    CourseDirectory
	Workspaces WorkspaceDirectory
	Publisher  platform.Publisher
	IDs        platform.IDs
	Clock      platform.Clock
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	ok, err := d.Workspaces.Exists(ctx, workspaceID)
	if err != nil {
		return err
	}
	if !ok {
		return kernel.NotFound("workspace %s not found", workspaceID)
	}
	return nil
}
