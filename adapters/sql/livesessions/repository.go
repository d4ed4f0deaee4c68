// Package livesessions is the live sessions module's persistence: it owns the
// live_sessions and recordings tables (docs/architecture.md, "Table ownership"). The
// courses the sessions name are checked through the courses module's published query
// (cmd/creatorapi/compose/courses_published.go), never read here.
package livesessions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// Repository stores live sessions (livesessions.Repository).
type Repository struct {
	db                  *sqldb.DB
	insert, get, update string
}

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{
		db:     db,
		insert: db.Rebind(`INSERT INTO live_sessions (` + sessionColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		// Transitions load the session inside their transaction: the lock keeps two
		// concurrent starts from both succeeding.
		get:    db.Rebind(`SELECT ` + sessionColumns + ` FROM live_sessions WHERE workspace_id = ? AND id = ?` + db.ForUpdate()),
		update: db.Rebind(`UPDATE live_sessions SET status = ?, started_at = ?, ended_at = ?, updated_at = ? WHERE workspace_id = ? AND id = ?`),
	}
}

// Add inserts a new session; an id that exists already is an error.
func (r *Repository) Add(ctx context.Context, s *livesessions.Session) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.insert, s.ID, s.WorkspaceID, s.CourseID, s.Title, string(s.Status),
		s.StartedAt, s.EndedAt, s.CreatedAt, s.UpdatedAt); err != nil {
		return fmt.Errorf("insert live session: %w", err)
	}
	return nil
}

// Get loads the session, locked for the caller's transaction, or NotFound.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*livesessions.Session, error) {
	var row sessionRow
	err := r.db.Write(ctx).GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("live session %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get live session: %w", err)
	}
	return row.session(), nil
}

// Update saves the session's state (status and instants).
func (r *Repository) Update(ctx context.Context, s *livesessions.Session) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.update, string(s.Status), s.StartedAt, s.EndedAt, s.UpdatedAt, s.WorkspaceID, s.ID); err != nil {
		return fmt.Errorf("update live session: %w", err)
	}
	return nil
}
