package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

const studentColumns = `id, workspace_id, email, first_name, last_name, external_id, metadata, created_at, updated_at, deleted_at`

// Students stores student aggregates; it is also the students directory other modules
// use (Exists, Touch).
type Students struct {
	db                                 *sqldb.DB
	insert, get, update, exists, touch string
}

// NewStudents prepares the statements for db's dialect.
func NewStudents(db *sqldb.DB) *Students {
	return &Students{
		db: db,
		// No conflict target: the only unique index a new id can hit is the partial
		// (workspace_id, email_lower) one, and naming a partial index differs per engine.
		insert: db.Rebind(`INSERT INTO students (` + studentColumns + `, email_lower) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`),
		get: db.Rebind(`SELECT ` + studentColumns + ` FROM students WHERE workspace_id = ? AND id = ? AND deleted_at IS NULL` + db.ForUpdate()),
		update: db.Rebind(`UPDATE students SET email = ?, email_lower = ?, first_name = ?, last_name = ?, external_id = ?, metadata = ?,
			updated_at = ?, deleted_at = ? WHERE workspace_id = ? AND id = ?`),
		exists: db.Rebind(`SELECT 1 FROM students WHERE workspace_id = ? AND id = ? AND deleted_at IS NULL`),
		touch:  db.Rebind(`UPDATE students SET updated_at = ? WHERE workspace_id = ? AND id = ? AND updated_at < ?`),
	}
}

type studentRow struct {
	ID          string     `db:"id"`
	WorkspaceID string     `db:"workspace_id"`
	Email       string     `db:"email"`
	FirstName   string     `db:"first_name"`
	LastName    string     `db:"last_name"`
	ExternalID  string     `db:"external_id"`
	Metadata    string     `db:"metadata"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
	DeletedAt   *time.Time `db:"deleted_at"`
}

func (row studentRow) metadata() (map[string]string, error) {
	m := map[string]string{}
	if row.Metadata == "" {
		return m, nil
	}
	if err := json.Unmarshal([]byte(row.Metadata), &m); err != nil {
		return nil, fmt.Errorf("student %s metadata: %w", row.ID, err)
	}
	return m, nil
}

func encodeMetadata(m map[string]string) (string, error) {
	if m == nil {
		m = map[string]string{}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("encode metadata: %w", err)
	}
	return string(raw), nil
}

// Add inserts s unless a live student of the workspace has its address; added tells which.
func (r *Students) Add(ctx context.Context, s *students.Student) (bool, error) {
	meta, err := encodeMetadata(s.Metadata)
	if err != nil {
		return false, err
	}
	res, err := r.db.Write(ctx).ExecContext(ctx, r.insert, s.ID, s.WorkspaceID, s.Email, s.FirstName, s.LastName, s.ExternalID,
		meta, s.CreatedAt, s.UpdatedAt, s.DeletedAt, students.EmailKey(s.Email))
	if err != nil {
		return false, fmt.Errorf("insert student: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("insert student: %w", err)
	}
	return n == 1, nil
}

// Get loads a live student, locked for the caller's transaction, or NotFound.
func (r *Students) Get(ctx context.Context, workspaceID, id string) (*students.Student, error) {
	var row studentRow
	err := r.db.Write(ctx).GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("student %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get student: %w", err)
	}
	meta, err := row.metadata()
	if err != nil {
		return nil, err
	}
	return &students.Student{
		ID: row.ID, WorkspaceID: row.WorkspaceID, Email: row.Email, FirstName: row.FirstName, LastName: row.LastName,
		ExternalID: row.ExternalID, Metadata: meta, CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
		DeletedAt: utcPtr(row.DeletedAt),
	}, nil
}

// Update saves s; an address another live student of the workspace uses is 422 email.
func (r *Students) Update(ctx context.Context, s *students.Student) error {
	meta, err := encodeMetadata(s.Metadata)
	if err != nil {
		return err
	}
	_, err = r.db.Write(ctx).ExecContext(ctx, r.update, s.Email, students.EmailKey(s.Email), s.FirstName, s.LastName, s.ExternalID,
		meta, s.UpdatedAt, s.DeletedAt, s.WorkspaceID, s.ID)
	if sqldb.IsUniqueViolation(err) {
		return kernel.Invalid("email", "email %s is already used by another student of this workspace", s.Email)
	}
	if err != nil {
		return fmt.Errorf("update student: %w", err)
	}
	return nil
}

// Exists tells whether a live student of the workspace has this id.
func (r *Students) Exists(ctx context.Context, workspaceID, studentID string) (bool, error) {
	var one int
	err := r.db.Read(ctx).GetContext(ctx, &one, r.exists, workspaceID, studentID)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("student exists: %w", err)
	}
	return true, nil
}

// Touch moves the student's updated_at forward to at, never back.
func (r *Students) Touch(ctx context.Context, workspaceID, studentID string, at time.Time) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.touch, at, workspaceID, studentID, at); err != nil {
		return fmt.Errorf("touch student: %w", err)
	}
	return nil
}
