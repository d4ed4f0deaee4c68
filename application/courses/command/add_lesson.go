package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
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

// AddLessonHandler handles AddLesson.
type AddLessonHandler struct {
	deps Deps
}

// NewAddLessonHandler builds the handler.
func NewAddLessonHandler(d Deps) AddLessonHandler { return AddLessonHandler{deps: d} }

// Handle returns the new lesson.
func (h AddLessonHandler) Handle(ctx context.Context, cmd AddLesson) (out query.Lesson, err error) {
	c, err := h.deps.Repo.GetByModule(ctx, cmd.WorkspaceID, cmd.ModuleID)
	if err != nil {
		return out, err
	}
	l, err := c.AddLesson(cmd.ModuleID, courses.LessonDraft{
		ID: h.deps.IDs.New(courses.LessonIDPrefix), Title: cmd.Title, Type: cmd.Type, DurationSeconds: cmd.DurationSeconds,
	}, h.deps.Clock.Now())
	if err != nil {
		return out, err
	}
	out = query.Lesson{ID: l.ID, Title: l.Title, Position: l.Position, Type: string(l.Type), DurationSeconds: l.DurationSeconds}
	return out, h.deps.Repo.Update(ctx, c)
}
