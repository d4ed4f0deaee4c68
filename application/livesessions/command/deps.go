// Package command schedules, starts and ends live sessions and records their recordings.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// CourseDirectory tells whether a course exists in a workspace (a port onto the courses module).
type CourseDirectory interface {
	Exists(ctx context.Context, workspaceID, courseID string) (bool, error)
}

// Deps are the ports every live-session command uses.
type Deps struct {
	platform.Kit // Tx, Publisher, IDs, Clock, Observer
	Sessions     livesessions.Repository
	Recordings   livesessions.Recordings
	Courses      CourseDirectory
	Workspaces   platform.WorkspaceDirectory
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	return platform.RequireWorkspace(ctx, d.Workspaces, workspaceID)
}
