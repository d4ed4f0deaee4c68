package query

import (
	"context"
)

// GetStudent fetches one live student of a workspace.
type GetStudent struct {
	WorkspaceID string
	StudentID   string
}

// GetStudent returns NotFound for a deleted student or one of another workspace.
func (r Reads) GetStudent(ctx context.Context, q GetStudent) (Student, error) {
	s, err := r.ReadModel.Get(ctx, q.WorkspaceID, q.StudentID)
	if err != nil {
		return Student{}, err
	}
	return r.History.ShowOne(ctx, q.WorkspaceID, s)
}
