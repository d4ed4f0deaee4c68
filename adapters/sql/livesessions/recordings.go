package livesessions

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// Recordings stores recordings (livesessions.Recordings). The foreign key to
// live_sessions refuses a recording of a session that was never stored.
type Recordings struct {
	db     *sqldb.DB
	insert string
}

// NewRecordings prepares the statement for db's dialect.
func NewRecordings(db *sqldb.DB) *Recordings {
	return &Recordings{db: db, insert: db.Rebind(`INSERT INTO recordings (id, workspace_id, live_session_id, course_id, duration_seconds, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`)}
}

// Add inserts a recording; an id that exists already is an error.
func (r *Recordings) Add(ctx context.Context, rec *livesessions.Recording) error {
	return r.db.Exec(ctx, "insert recording", r.insert, rec.ID, rec.WorkspaceID, rec.LiveSessionID, rec.CourseID,
		rec.DurationSeconds, rec.CreatedAt)
}
