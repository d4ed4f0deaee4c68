package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/certificates/query"
	"github.com/creatorapi/creatorapi/application/events"
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

// IssueCertificateHandler handles IssueCertificate.
type IssueCertificateHandler struct{ deps Deps }

// NewIssueCertificateHandler builds the handler.
func NewIssueCertificateHandler(d Deps) IssueCertificateHandler {
	return IssueCertificateHandler{deps: d}
}

// Handle is idempotent per (student, course): the first call issues and emits (created
// true); later calls return the same certificate and emit nothing. A unique constraint
// settles concurrent first calls.
func (h IssueCertificateHandler) Handle(ctx context.Context, cmd IssueCertificate) (query.Certificate, bool, error) {
	var out query.Certificate
	var created bool
	err := h.deps.Tx.WithinTx(ctx, func(ctx context.Context) error {
		if err := h.deps.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
			return err
		}
		if cmd.StudentID == "" {
			return kernel.Invalid("studentId", "studentId is required")
		}
		if cmd.CourseID == "" {
			return kernel.Invalid("courseId", "courseId is required")
		}
		ok, err := h.deps.Students.Exists(ctx, cmd.WorkspaceID, cmd.StudentID)
		if err != nil {
			return err
		}
		if !ok {
			return kernel.Invalid("studentId", "student %s does not exist in this workspace", cmd.StudentID)
		}
		existing, err := h.deps.Repo.Find(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.CourseID)
		if err == nil {
			out = query.View(existing)
			return nil
		}
		if !kernel.IsNotFound(err) {
			return err
		}
		completion, err := h.deps.Completions.Of(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.CourseID)
		if err != nil {
			return err
		}
		c, err := certificates.Issue(h.deps.IDs.New(certificates.IDPrefix), cmd.WorkspaceID, cmd.StudentID, cmd.CourseID, completion, h.deps.Clock.Now())
		if err != nil {
			return err
		}
		if created, err = h.deps.Repo.Add(ctx, c); err != nil {
			return err
		}
		if !created {
			// A concurrent call issued it first: answer with that one.
			if c, err = h.deps.Repo.Find(ctx, cmd.WorkspaceID, cmd.StudentID, cmd.CourseID); err != nil {
				return err
			}
			out = query.View(c)
			return nil
		}
		out = query.View(c)
		return h.deps.Publisher.Publish(ctx, events.CertificateIssuedV1.New(cmd.WorkspaceID, out))
	})
	if err != nil {
		return query.Certificate{}, false, fmt.Errorf("issue certificate: %w", err)
	}
	return out, created, nil
}
