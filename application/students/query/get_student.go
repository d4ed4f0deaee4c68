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
	rm      ReadModel
	history History
}

// NewGetStudentHandler builds the handler.
func NewGetStudentHandler(rm ReadModel, h History) GetStudentHandler {
	return GetStudentHandler{rm: rm, history: h}
}

// Handle returns NotFound for a deleted student or one of another workspace.
func (h GetStudentHandler) Handle(ctx context.Context, q GetStudent) (Student, error) {
	s, err := h.rm.Get(ctx, q.WorkspaceID, q.StudentID)
	if err != nil {
		return Student{}, err
	}
	return h.history.ShowOne(ctx, q.WorkspaceID, s)
}
