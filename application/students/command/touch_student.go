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

// TouchStudent never moves updatedAt back and leaves a missing student alone.
func (d Deps) TouchStudent(ctx context.Context, cmd TouchStudent) (struct{}, error) {
	return struct{}{}, d.Repo.Touch(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.At)
}
