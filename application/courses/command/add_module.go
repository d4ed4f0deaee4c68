package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
)

// AddModule appends a module to a course.
type AddModule struct {
	WorkspaceID string
	CourseID    string
	Title       string
}

// AddModule returns the new module.
func (d Deps) AddModule(ctx context.Context, cmd AddModule) (query.Module, error) {
	var m courses.Module
	_, err := platform.Change(ctx, d.Repo, cmd.WorkspaceID, cmd.CourseID, func(c *courses.Course) (err error) {
		m, err = c.AddModule(d.IDs.New(courses.ModuleIDPrefix), cmd.Title, d.Clock.Now())
		return err
	})
	return query.Module{ID: m.ID, Title: m.Title, Position: m.Position, Lessons: []query.Lesson{}}, err
}
