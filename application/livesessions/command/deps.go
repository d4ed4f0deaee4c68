// Package command schedules, starts and ends live sessions and records their recordings.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/livesessions/query"
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

// sessions takes sessions through their life cycle, each step announced by its event
// with the session as the API shows it.
func (d Deps) sessions() platform.Lifecycle[*livesessions.Session, query.LiveSession] {
	return platform.Lifecycle[*livesessions.Session, query.LiveSession]{Kit: d.Kit, Store: d.Sessions, View: query.SessionView}
}
