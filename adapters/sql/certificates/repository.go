// Package certificates is the certificates module's persistence: it owns the
// certificates table (docs/architecture.md, "Table ownership"). The completions a
// certificate requires come from the enrollments module's published query
// (adapters/modulelinks/enrollments.go), never from its tables.
package certificates

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/certificates"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Repository stores certificates (certificates/command.Store: certificates.Repository
// and Find).
type Repository struct{ sqldb.Prepared[statements] }

type statements struct{ Insert, Find string }

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{sqldb.Prepare(db, statements{
		// The unique (workspace, student, course) constraint settles concurrent issues.
		Insert: `INSERT INTO certificates (id, workspace_id, student_id, course_id, enrollment_id, issued_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, student_id, course_id) DO NOTHING`,
		Find: `SELECT id, workspace_id, student_id, course_id, enrollment_id, issued_at FROM certificates
			WHERE workspace_id = ? AND student_id = ? AND course_id = ?`,
	})}
}

// Add inserts c unless the student already has a certificate for the course.
func (r *Repository) Add(ctx context.Context, c *certificates.Certificate) (bool, error) {
	return r.DB.Changes(ctx, "insert certificate", r.Q.Insert, c.ID, c.WorkspaceID, c.StudentID, c.CourseID, c.EnrollmentID, c.IssuedAt)
}

// Find returns the student's certificate for the course, or NotFound.
func (r *Repository) Find(ctx context.Context, workspaceID, studentID, courseID string) (*certificates.Certificate, error) {
	var c certificates.Certificate
	err := sqldb.One(ctx, r.DB.Read(ctx), &c, kernel.NotFound("no certificate of student %s for course %s", studentID, courseID),
		r.Q.Find, workspaceID, studentID, courseID)
	if err != nil {
		return nil, err
	}
	return &c, nil
}
