package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
)

// AddLesson appends a lesson to a module.
type AddLesson struct {
	WorkspaceID     string
	ModuleID        string
	Title           string
	Type            string
	DurationSeconds int
}

// AddLesson returns the new lesson.
func (d Deps) AddLesson(ctx context.Context, cmd AddLesson) (query.Lesson, error) {
	var l courses.Lesson
	_, err := platform.Change(ctx, byModule{d.Repo}, cmd.WorkspaceID, cmd.ModuleID, func(c *courses.Course) (err error) {
		l, err = c.AddLesson(cmd.ModuleID, courses.LessonDraft{
			ID: d.IDs.New(courses.LessonIDPrefix), Title: cmd.Title, Type: cmd.Type, DurationSeconds: cmd.DurationSeconds,
		}, d.Clock.Now())
		return err
	})
	return query.Lesson{ID: l.ID, Title: l.Title, Position: l.Position, Type: string(l.Type), DurationSeconds: l.DurationSeconds}, err
}

// byModule finds the course that holds a module (NotFound outside the workspace).
type byModule struct{ courses.Repository }

func (r byModule) Get(ctx context.Context, workspaceID, moduleID string) (*courses.Course, error) {
	return r.GetByModule(ctx, workspaceID, moduleID)
}
