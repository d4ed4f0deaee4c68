package enrollments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Repository stores enrollment aggregates (enrollments.Repository).
type Repository struct {
	db                             *sqldb.DB
	insert, get, getByPair, update string
}

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{
		db: db,
		// The unique (workspace_id, student_id, course_id) constraint makes concurrent
		// identical grants insert one row; the others affect none.
		insert: db.Rebind(`INSERT INTO enrollments (` + enrollmentColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (workspace_id, student_id, course_id) DO NOTHING`),
		get:       db.Rebind(`SELECT ` + enrollmentColumns + ` FROM enrollments WHERE workspace_id = ? AND id = ?` + db.ForUpdate()),
		getByPair: db.Rebind(`SELECT ` + enrollmentColumns + ` FROM enrollments WHERE workspace_id = ? AND student_id = ? AND course_id = ?` + db.ForUpdate()),
		update: db.Rebind(`UPDATE enrollments SET status = ?, updated_at = ?, revoked_at = ?, completed_at = ?
			WHERE workspace_id = ? AND id = ?`),
	}
}

// Add inserts e unless the pair is enrolled already; added tells which.
func (r *Repository) Add(ctx context.Context, e *enrollments.Enrollment) (bool, error) {
	return r.db.Changes(ctx, "insert enrollment", r.insert, e.ID, e.WorkspaceID, e.StudentID, e.CourseID, string(e.Status),
		string(e.Source), e.CreatedAt, e.UpdatedAt, e.RevokedAt, e.CompletedAt)
}

// Get loads the enrollment locked for the caller's transaction, or NotFound.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*enrollments.Enrollment, error) {
	return one(ctx, r.db.Write(ctx), r.get, "enrollment "+id, workspaceID, id)
}

// GetByPair loads the enrollment of student in course, locked, or NotFound.
func (r *Repository) GetByPair(ctx context.Context, workspaceID, studentID, courseID string) (*enrollments.Enrollment, error) {
	return one(ctx, r.db.Write(ctx), r.getByPair, "enrollment", workspaceID, studentID, courseID)
}

func one(ctx context.Context, q sqldb.Querier, stmt, what string, args ...any) (*enrollments.Enrollment, error) {
	var row enrollmentRow
	err := q.GetContext(ctx, &row, stmt, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("%s not found", what)
	}
	if err != nil {
		return nil, fmt.Errorf("get enrollment: %w", err)
	}
	return row.enrollment(), nil
}

// Update saves the state of e.
func (r *Repository) Update(ctx context.Context, e *enrollments.Enrollment) error {
	_, err := r.db.Write(ctx).ExecContext(ctx, r.update, string(e.Status), e.UpdatedAt, e.RevokedAt, e.CompletedAt, e.WorkspaceID, e.ID)
	if err != nil {
		return fmt.Errorf("update enrollment: %w", err)
	}
	return nil
}
