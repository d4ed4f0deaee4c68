package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

const liveSessionColumns = `id, workspace_id, course_id, title, status, started_at, ended_at, created_at, updated_at`

// LiveSessions stores live sessions and their recordings.
type LiveSessions struct {
	db                                   *sqldb.DB
	insert, get, update, insertRecording string
}

// NewLiveSessions prepares the statements for db's dialect.
func NewLiveSessions(db *sqldb.DB) *LiveSessions {
	return &LiveSessions{
		db:     db,
		insert: db.Rebind(`INSERT INTO live_sessions (` + liveSessionColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		// Transitions load the session inside their transaction: the lock keeps two
		// concurrent starts from both succeeding.
		get:    db.Rebind(`SELECT ` + liveSessionColumns + ` FROM live_sessions WHERE workspace_id = ? AND id = ?` + db.ForUpdate()),
		update: db.Rebind(`UPDATE live_sessions SET status = ?, started_at = ?, ended_at = ?, updated_at = ? WHERE workspace_id = ? AND id = ?`),
		insertRecording: db.Rebind(`INSERT INTO recordings (id, workspace_id, live_session_id, course_id, duration_seconds, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`),
	}
}

type liveSessionRow struct {
	ID          string     `db:"id"`
	WorkspaceID string     `db:"workspace_id"`
	CourseID    string     `db:"course_id"`
	Title       string     `db:"title"`
	Status      string     `db:"status"`
	StartedAt   *time.Time `db:"started_at"`
	EndedAt     *time.Time `db:"ended_at"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
}

// Add inserts a new session.
func (r *LiveSessions) Add(ctx context.Context, s *livesessions.Session) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.insert, s.ID, s.WorkspaceID, s.CourseID, s.Title, string(s.Status),
		s.StartedAt, s.EndedAt, s.CreatedAt, s.UpdatedAt); err != nil {
		return fmt.Errorf("insert live session: %w", err)
	}
	return nil
}

// Get loads the session, locked for the caller's transaction.
func (r *LiveSessions) Get(ctx context.Context, workspaceID, id string) (*livesessions.Session, error) {
	var row liveSessionRow
	err := r.db.Write(ctx).GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("live session %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get live session: %w", err)
	}
	return &livesessions.Session{
		ID: row.ID, WorkspaceID: row.WorkspaceID, CourseID: row.CourseID, Title: row.Title, Status: livesessions.Status(row.Status),
		StartedAt: utcPtr(row.StartedAt), EndedAt: utcPtr(row.EndedAt), CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}, nil
}

// Update saves the session's state.
func (r *LiveSessions) Update(ctx context.Context, s *livesessions.Session) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.update, string(s.Status), s.StartedAt, s.EndedAt, s.UpdatedAt, s.WorkspaceID, s.ID); err != nil {
		return fmt.Errorf("update live session: %w", err)
	}
	return nil
}

// Recordings is the recording store of the sessions.
func (r *LiveSessions) Recordings() *Recordings { return &Recordings{sessions: r} }

// Recordings stores recordings (livesessions.Recordings).
type Recordings struct{ sessions *LiveSessions }

// Add inserts a recording.
func (r *Recordings) Add(ctx context.Context, rec *livesessions.Recording) error {
	s := r.sessions
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.insertRecording, rec.ID, rec.WorkspaceID, rec.LiveSessionID, rec.CourseID,
		rec.DurationSeconds, rec.CreatedAt); err != nil {
		return fmt.Errorf("insert recording: %w", err)
	}
	return nil
}
