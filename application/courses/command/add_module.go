package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
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
func (h AddModuleHandler) Handle(ctx context.Context, cmd AddModule) (out query.Module, err error) {
	c, err := h.deps.Repo.Get(ctx, cmd.WorkspaceID, cmd.CourseID)
	if err != nil {
		return out, err
	}
	m, err := c.AddModule(h.deps.IDs.New(courses.ModuleIDPrefix), cmd.Title, h.deps.Clock.Now())
	if err != nil {
		return out, err
	}
	out = query.Module{ID: m.ID, Title: m.Title, Position: m.Position, Lessons: []query.Lesson{}}
	return out, h.deps.Repo.Update(ctx, c)
}
