package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/events"
)

// RevokeEnrollment ends a student's entitlement to a course.
type RevokeEnrollment struct {
	WorkspaceID  string
	EnrollmentID string
}

// RevokeEnrollmentHandler handles RevokeEnrollment.
type RevokeEnrollmentHandler struct {
	deps Deps
}

// NewRevokeEnrollmentHandler builds the handler.
func NewRevokeEnrollmentHandler(d Deps) RevokeEnrollmentHandler {
	return RevokeEnrollmentHandler{deps: d}
}

// Handle revokes and emits enrollment.revoked; revoking a revoked enrollment returns it
// unchanged without an event. NotFound outside the workspace.
func (h RevokeEnrollmentHandler) Handle(ctx context.Context, cmd RevokeEnrollment) (out query.Enrollment, err error) {
	e, err := h.deps.Repo.Get(ctx, cmd.WorkspaceID, cmd.EnrollmentID)
	if err != nil {
		return out, err
	}
	now := h.deps.Clock.Now()
	out = query.FromDomain(e)
	if !e.Revoke(now) {
		return out, nil
	}
	if err := h.deps.Repo.Update(ctx, e); err != nil {
		return out, err
	}
	if err := h.deps.Students.Touch(ctx, cmd.WorkspaceID, e.StudentID, now); err != nil {
		return out, err
	}
	out = query.FromDomain(e)
	return out, h.deps.Publisher.Publish(ctx, events.EnrollmentRevokedV1.New(cmd.WorkspaceID, out))
}
