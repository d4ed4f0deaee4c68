package sqlstore

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

// Certificates stores certificates. The completions they require come from the
// enrollments module's published query (cmd/creatorapi/compose/enrollments_published.go).
type Certificates struct {
	db           *sqldb.DB
	insert, find string
}

// NewCertificates prepares the statements for db's dialect.
func NewCertificates(db *sqldb.DB) *Certificates {
	return &Certificates{
		db: db,
		// The unique (workspace, student, course) constraint settles concurrent issues.
		insert: db.Rebind(`INSERT INTO certificates (id, workspace_id, student_id, course_id, enrollment_id, issued_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, student_id, course_id) DO NOTHING`),
		find: db.Rebind(`SELECT id, workspace_id, student_id, course_id, enrollment_id, issued_at FROM certificates
			WHERE workspace_id = ? AND student_id = ? AND course_id = ?`),
	}
}

type certificateRow struct {
	ID           string    `db:"id"`
	WorkspaceID  string    `db:"workspace_id"`
	StudentID    string    `db:"student_id"`
	CourseID     string    `db:"course_id"`
	EnrollmentID string    `db:"enrollment_id"`
	IssuedAt     time.Time `db:"issued_at"`
}

// Add inserts c unless the student already has a certificate for the course.
func (r *Certificates) Add(ctx context.Context, c *certificates.Certificate) (bool, error) {
	res, err := r.db.Write(ctx).ExecContext(ctx, r.insert, c.ID, c.WorkspaceID, c.StudentID, c.CourseID, c.EnrollmentID, c.IssuedAt)
	if err != nil {
		return false, fmt.Errorf("insert certificate: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("insert certificate: %w", err)
	}
	return n == 1, nil
}

// Find returns the student's certificate for the course, or NotFound.
func (r *Certificates) Find(ctx context.Context, workspaceID, studentID, courseID string) (*certificates.Certificate, error) {
	var row certificateRow
	err := r.db.Read(ctx).GetContext(ctx, &row, r.find, workspaceID, studentID, courseID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("no certificate of student %s for course %s", studentID, courseID)
	}
	if err != nil {
		return nil, fmt.Errorf("find certificate: %w", err)
	}
	return &certificates.Certificate{ID: row.ID, WorkspaceID: row.WorkspaceID, StudentID: row.StudentID, CourseID: row.CourseID,
		EnrollmentID: row.EnrollmentID, IssuedAt: row.IssuedAt.UTC()}, nil
}
