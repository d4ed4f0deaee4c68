package query

import (
	"context"
)

// GetEnrollment fetches one enrollment of a workspace.
type GetEnrollment struct {
	WorkspaceID  string
	EnrollmentID string
}

// GetEnrollment returns NotFound outside the workspace.
func (r Reads) GetEnrollment(ctx context.Context, q GetEnrollment) (Enrollment, error) {
	return r.ReadModel.Find(ctx, q.WorkspaceID, q.EnrollmentID)
}
