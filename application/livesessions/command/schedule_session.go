package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/livesessions/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// ScheduleSession plans a live session of a course (no event: nothing happened yet).
type ScheduleSession struct {
	WorkspaceID string
	CourseID    string
	Title       string
}

// ScheduleSession returns the scheduled session; a course outside the workspace is 422 courseId.
func (d Deps) ScheduleSession(ctx context.Context, cmd ScheduleSession) (out query.LiveSession, err error) {
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return out, err
	}
	s, err := livesessions.Schedule(d.IDs.New(livesessions.IDPrefix), cmd.WorkspaceID, cmd.CourseID, cmd.Title, d.Clock.Now())
	if err != nil {
		return out, err
	}
	ok, err := d.Courses.Exists(ctx, cmd.WorkspaceID, cmd.CourseID)
	if err != nil {
		return out, err
	}
	if !ok {
		return out, kernel.Invalid("courseId", "course %s does not exist in this workspace", cmd.CourseID)
	}
	if err := d.Sessions.Add(ctx, s); err != nil {
		return out, err
	}
	out = query.SessionView(s)
	return out, nil
}
