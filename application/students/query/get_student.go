package query

import (
	"context"
)

// GetStudent fetches one live student of a workspace.
type GetStudent struct {
	WorkspaceID string
	StudentID   string
}

// GetStudentHandler handles GetStudent.
type GetStudentHandler struct {
	rm ReadModel
}

// NewGetStudentHandler builds the handler.
func NewGetStudentHandler(rm ReadModel) GetStudentHandler { return GetStudentHandler{rm: rm} }

// Handle returns NotFound for a deleted student or one of another workspace.
func (h GetStudentHandler) Handle(ctx context.Context, q GetStudent) (Student, error) {
	return h.rm.Get(ctx, q.WorkspaceID, q.StudentID)
}
