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

// AddModuleHandler handles AddModule.
type AddModuleHandler struct {
	deps Deps
}

// NewAddModuleHandler builds the handler.
func NewAddModuleHandler(d Deps) AddModuleHandler { return AddModuleHandler{deps: d} }

// Handle returns the new module.
func (h AddModuleHandler) Handle(ctx context.Context, cmd AddModule) (query.Module, error) {
	var m courses.Module
	_, err := platform.Change(ctx, h.deps.Repo, cmd.WorkspaceID, cmd.CourseID, func(c *courses.Course) (err error) {
		m, err = c.AddModule(h.deps.IDs.New(courses.ModuleIDPrefix), cmd.Title, h.deps.Clock.Now())
		return err
	})
	return query.Module{ID: m.ID, Title: m.Title, Position: m.Position, Lessons: []query.Lesson{}}, err
}
