package command

import (
	"context"
	"time"
)

// TouchStudent moves a student's updatedAt forward: the enrollments module tells it
// that the student's enrollments changed (the student's page embeds them). It emits
// nothing, as before the split.
type TouchStudent struct {
	WorkspaceID string
	StudentID   string
	At          time.Time
}

// TouchStudentHandler handles TouchStudent.
type TouchStudentHandler struct{ deps Deps }

// NewTouchStudentHandler builds the handler.
func NewTouchStudentHandler(d Deps) TouchStudentHandler { return TouchStudentHandler{deps: d} }

// Handle never moves updatedAt back and leaves a missing student alone.
func (h TouchStudentHandler) Handle(ctx context.Context, cmd TouchStudent) (struct{}, error) {
	return struct{}{}, h.deps.Repo.Touch(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.At)
}
