package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/enrollments"
)

// RevokeEnrollment ends a student's entitlement to a course.
type RevokeEnrollment struct {
	WorkspaceID  string
	EnrollmentID string
}

// RevokeEnrollment revokes and emits enrollment.revoked; revoking a revoked enrollment returns it
// unchanged without an event. NotFound outside the workspace.
func (d Deps) RevokeEnrollment(ctx context.Context, cmd RevokeEnrollment) (query.Enrollment, error) {
	now := d.Clock.Now()
	e, revoked, err := platform.ChangeIf(ctx, d.Repo, cmd.WorkspaceID, cmd.EnrollmentID, func(e *enrollments.Enrollment) (bool, error) {
		return e.Revoke(now), nil
	})
	if err != nil {
		return query.Enrollment{}, err
	}
	out := query.FromDomain(e)
	if !revoked {
		return out, nil
	}
	if err := d.Students.Touch(ctx, cmd.WorkspaceID, e.StudentID, now); err != nil {
		return out, err
	}
	return out, d.Publisher.Publish(ctx, events.EnrollmentRevokedV1.New(cmd.WorkspaceID, out))
}
