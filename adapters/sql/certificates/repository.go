// Package certificates is the certificates module's persistence: it owns the
// certificates table (docs/architecture.md, "Table ownership"). The completions a
// certificate requires come from the enrollments module's published query
// (cmd/creatorapi/compose/enrollments_published.go), never from its tables.
package certificates

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/certificates"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Repository stores certificates (certificates/command.Store: certificates.Repository
// and Find).
type Repository struct {
	db           *sqldb.DB
	insert, find string
}

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{
		db: db,
		// The unique (workspace, student, course) constraint settles concurrent issues.
		insert: db.Rebind(`INSERT INTO certificates (id, workspace_id, student_id, course_id, enrollment_id, issued_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, student_id, course_id) DO NOTHING`),
		find: db.Rebind(`SELECT id, workspace_id, student_id, course_id, enrollment_id, issued_at FROM certificates
			WHERE workspace_id = ? AND student_id = ? AND course_id = ?`),
	}
}

// certificateRow has the fields of certificates.Certificate with their columns, so a
// row converts to the aggregate (Go ignores tags in conversions).
type certificateRow struct {
	ID           string    `db:"id"`
	WorkspaceID  string    `db:"workspace_id"`
	StudentID    string    `db:"student_id"`
	CourseID     string    `db:"course_id"`
	EnrollmentID string    `db:"enrollment_id"`
	IssuedAt     time.Time `db:"issued_at"`
}

// Add inserts c unless the student already has a certificate for the course.
func (r *Repository) Add(ctx context.Context, c *certificates.Certificate) (bool, error) {
	return r.db.Changes(ctx, "insert certificate", r.insert, c.ID, c.WorkspaceID, c.StudentID, c.CourseID, c.EnrollmentID, c.IssuedAt)
}

// Find returns the student's certificate for the course, or NotFound.
func (r *Repository) Find(ctx context.Context, workspaceID, studentID, courseID string) (*certificates.Certificate, error) {
	var row certificateRow
	err := r.db.Read(ctx).GetContext(ctx, &row, r.find, workspaceID, studentID, courseID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("no certificate of student %s for course %s", studentID, courseID)
	}
	if err != nil {
		return nil, fmt.Errorf("find certificate: %w", err)
	}
	c := certificates.Certificate(row)
	c.IssuedAt = c.IssuedAt.UTC()
	return &c, nil
}
