// Package livesessions is the live sessions module's persistence: it owns the
// live_sessions and recordings tables (docs/architecture.md, "Table ownership"). The
// courses the sessions name are checked through the courses module's published query
// (adapters/modulelinks/courses.go), never read here.
package livesessions

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// The live_sessions table's columns, in the order of the repository's insert; a row
// scans straight into livesessions.Session.
const sessionColumns = `id, workspace_id, course_id, title, status, started_at, ended_at, created_at, updated_at`

// Repository stores live sessions (livesessions.Repository).
type Repository struct{ sqldb.Prepared[statements] }

type statements struct{ Insert, Get, Update string }

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{sqldb.Prepare(db, statements{
		Insert: `INSERT INTO live_sessions (` + sessionColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		// Transitions load the session inside their transaction: the lock keeps two
		// concurrent starts from both succeeding.
		Get:    `SELECT ` + sessionColumns + ` FROM live_sessions WHERE workspace_id = ? AND id = ?` + db.ForUpdate(),
		Update: `UPDATE live_sessions SET status = ?, started_at = ?, ended_at = ?, updated_at = ? WHERE workspace_id = ? AND id = ?`,
	})}
}

// Add inserts a new session; an id that exists already is an error.
func (r *Repository) Add(ctx context.Context, s *livesessions.Session) error {
	return r.DB.Exec(ctx, "insert live session", r.Q.Insert, s.ID, s.WorkspaceID, s.CourseID, s.Title, string(s.Status),
		s.StartedAt, s.EndedAt, s.CreatedAt, s.UpdatedAt)
}

// Get loads the session, locked for the caller's transaction, or NotFound.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*livesessions.Session, error) {
	var s livesessions.Session
	if err := sqldb.One(ctx, r.DB.Write(ctx), &s, kernel.NotFound("live session %s not found", id), r.Q.Get, workspaceID, id); err != nil {
		return nil, err
	}
	return &s, nil
}

// Update saves the session's state (status and instants).
func (r *Repository) Update(ctx context.Context, s *livesessions.Session) error {
	return r.DB.Exec(ctx, "update live session", r.Q.Update, string(s.Status), s.StartedAt, s.EndedAt, s.UpdatedAt, s.WorkspaceID, s.ID)
}
