package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// GrantEnrollment enrolls a student in a published course; Source is api, order or operator.
type GrantEnrollment struct {
	WorkspaceID string
	StudentID   string
	CourseID    string
	Source      string
}

// GrantEnrollment is idempotent on (student, course). created is true when a new enrollment was
// stored. An existing one is returned as it is, except a revoked one, which is
// reactivated (created stays false). A new or reactivated enrollment emits
// enrollment.created: for receivers the entitlement starts again. The student and the
// course must resolve in the workspace and the course must be published (422 otherwise).
func (d Deps) GrantEnrollment(ctx context.Context, cmd GrantEnrollment) (out platform.Upsert[query.Enrollment], err error) {
	if err := d.requireStudent(ctx, cmd.WorkspaceID, cmd.StudentID); err != nil {
		return out, err
	}
	if err := d.requirePublished(ctx, cmd.WorkspaceID, cmd.CourseID); err != nil {
		return out, err
	}
	now := d.Clock.Now()
	e, err := enrollments.New(d.IDs.New(enrollments.IDPrefix), cmd.WorkspaceID, cmd.StudentID, cmd.CourseID, cmd.Source, now)
	if err != nil {
		return out, err
	}
	// The unique constraint on (workspace, student, course) decides between
	// concurrent grants; the losers read the winner's row.
	if out.Created, err = d.Repo.Add(ctx, e); err != nil {
		return out, err
	}
	if !out.Created {
		if e, err = d.Repo.GetByPair(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.CourseID); err != nil {
			return out, err
		}
		if !e.Reactivate(now) {
			out.Value = query.FromDomain(e)
			return out, nil
		}
		if err := d.Repo.Update(ctx, e); err != nil {
			return out, err
		}
	}
	if err := d.Students.Touch(ctx, cmd.WorkspaceID, cmd.StudentID, now); err != nil {
		return out, err
	}
	out.Value = query.FromDomain(e)
	return out, d.Publisher.Publish(ctx, events.EnrollmentCreatedV1.New(cmd.WorkspaceID, out.Value))
}

func (d Deps) requirePublished(ctx context.Context, workspaceID, courseID string) error {
	if courseID == "" {
		return kernel.Invalid("courseId", "courseId is required")
	}
	c, err := d.Catalog.Course(ctx, workspaceID, courseID)
	if kernel.IsNotFound(err) {
		return kernel.Invalid("courseId", "courseId: course %s not found in this workspace", courseID)
	}
	if err != nil {
		return err
	}
	if !c.Published {
		return kernel.Invalid("courseId", "courseId: course %s is not published", courseID)
	}
	return nil
}
