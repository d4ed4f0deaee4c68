package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/certificates/query"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/certificates"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IssueCertificate certifies that a student completed a course (emits certificate.issued
// the first time).
type IssueCertificate struct {
	WorkspaceID string
	StudentID   string
	CourseID    string
}

// IssueCertificate is idempotent per (student, course): the first call issues and emits (created
// true); later calls return the same certificate and emit nothing. A unique constraint
// settles concurrent first calls.
func (d Deps) IssueCertificate(ctx context.Context, cmd IssueCertificate) (out platform.Upsert[query.Certificate], err error) {
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return out, err
	}
	if cmd.StudentID == "" {
		return out, kernel.Invalid("studentId", "studentId is required")
	}
	if cmd.CourseID == "" {
		return out, kernel.Invalid("courseId", "courseId is required")
	}
	ok, err := d.Students.Exists(ctx, cmd.WorkspaceID, cmd.StudentID)
	if err != nil {
		return out, err
	}
	if !ok {
		return out, kernel.Invalid("studentId", "student %s does not exist in this workspace", cmd.StudentID)
	}
	existing, err := d.Repo.Find(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.CourseID)
	if err == nil {
		out.Value = query.View(existing)
		return out, nil
	}
	if !kernel.IsNotFound(err) {
		return out, err
	}
	completion, err := d.Completions.Of(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.CourseID)
	if err != nil {
		return out, err
	}
	c, err := certificates.Issue(d.IDs.New(certificates.IDPrefix), cmd.WorkspaceID, cmd.StudentID, cmd.CourseID, completion, d.Clock.Now())
	if err != nil {
		return out, err
	}
	if out.Created, err = d.Repo.Add(ctx, c); err != nil {
		return out, err
	}
	if !out.Created {
		// A concurrent call issued it first: answer with that one.
		if c, err = d.Repo.Find(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.CourseID); err != nil {
			return out, err
		}
		out.Value = query.View(c)
		return out, nil
	}
	out.Value = query.View(c)
	return out, d.Publisher.Publish(ctx, events.CertificateIssuedV1.New(cmd.WorkspaceID, out.Value))
}
