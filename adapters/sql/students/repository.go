package students

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// Repository stores student aggregates (students.Repository).
type Repository struct{ sqldb.Prepared[statements] }

type statements struct{ Insert, Get, Update, Touch string }

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{sqldb.Prepare(db, statements{
		// No conflict target: the only unique index a new id can hit is the partial
		// (workspace_id, email_lower) one, and naming a partial index differs per engine.
		Insert: `INSERT INTO students (` + studentColumns + `, email_lower) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`,
		Get: `SELECT ` + studentColumns + ` FROM students WHERE workspace_id = ? AND id = ? AND deleted_at IS NULL` + db.ForUpdate(),
		Update: `UPDATE students SET email = ?, email_lower = ?, first_name = ?, last_name = ?, external_id = ?, metadata = ?,
			updated_at = ?, deleted_at = ? WHERE workspace_id = ? AND id = ?`,
		Touch: `UPDATE students SET updated_at = ? WHERE workspace_id = ? AND id = ? AND updated_at < ?`,
	})}
}

// Add inserts s unless a live student of the workspace has its address; added tells which.
func (r *Repository) Add(ctx context.Context, s *students.Student) (bool, error) {
	meta, err := encodeMetadata(s.Metadata)
	if err != nil {
		return false, err
	}
	return r.DB.Changes(ctx, "insert student", r.Q.Insert, s.ID, s.WorkspaceID, s.Email, s.FirstName, s.LastName, s.ExternalID,
		meta, s.CreatedAt, s.UpdatedAt, s.DeletedAt, students.EmailKey(s.Email))
}

// Get loads a live student, locked for the caller's transaction, or NotFound.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*students.Student, error) {
	return one(ctx, r.DB.Write(ctx), r.Q.Get, "student "+id, workspaceID, id)
}

// one reads the student stmt selects with args, or NotFound naming what.
func one(ctx context.Context, q sqldb.Querier, stmt, what string, args ...any) (*students.Student, error) {
	var row studentRow
	if err := sqldb.One(ctx, q, &row, kernel.NotFound("%s not found", what), stmt, args...); err != nil {
		return nil, err
	}
	return row.student()
}

// Update saves s; an address another live student of the workspace uses is 422 email.
func (r *Repository) Update(ctx context.Context, s *students.Student) error {
	meta, err := encodeMetadata(s.Metadata)
	if err != nil {
		return err
	}
	_, err = r.DB.Write(ctx).ExecContext(ctx, r.Q.Update, s.Email, students.EmailKey(s.Email), s.FirstName, s.LastName, s.ExternalID,
		meta, s.UpdatedAt, s.DeletedAt, s.WorkspaceID, s.ID)
	if sqldb.IsUniqueViolation(err) {
		return kernel.Invalid("email", "email %s is already used by another student of this workspace", s.Email)
	}
	if err != nil {
		return fmt.Errorf("update student: %w", err)
	}
	return nil
}

// Touch moves the student's updated_at forward to at, never back (deleted students too).
func (r *Repository) Touch(ctx context.Context, workspaceID, id string, at time.Time) error {
	return r.DB.Exec(ctx, "touch student", r.Q.Touch, at, workspaceID, id, at)
}
