package query

import (
	"context"
)

// GetEnrollment fetches one enrollment of a workspace.
type GetEnrollment struct {
	WorkspaceID  string
	EnrollmentID string
}

// GetEnrollmentHandler handles GetEnrollment.
type GetEnrollmentHandler struct {
	rm ReadModel
}

// NewGetEnrollmentHandler builds the handler.
func NewGetEnrollmentHandler(rm ReadModel) GetEnrollmentHandler { return GetEnrollmentHandler{rm: rm} }

// Handle returns NotFound outside the workspace.
func (h GetEnrollmentHandler) Handle(ctx context.Context, q GetEnrollment) (Enrollment, error) {
	return h.rm.Find(ctx, q.WorkspaceID, q.EnrollmentID)
}
