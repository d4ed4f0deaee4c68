package livesessions

import (
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// The live_sessions table's columns, in the order of the repository's insert.
const sessionColumns = `id, workspace_id, course_id, title, status, started_at, ended_at, created_at, updated_at`

// sessionRow has the fields of livesessions.Session with their columns, so a row
// converts to the aggregate (Go ignores tags in conversions).
type sessionRow struct {
	ID          string              `db:"id"`
	WorkspaceID string              `db:"workspace_id"`
	CourseID    string              `db:"course_id"`
	Title       string              `db:"title"`
	Status      livesessions.Status `db:"status"`
	StartedAt   *time.Time          `db:"started_at"`
	EndedAt     *time.Time          `db:"ended_at"`
	CreatedAt   time.Time           `db:"created_at"`
	UpdatedAt   time.Time           `db:"updated_at"`
}

// session is the aggregate of the row, its instants in UTC.
func (row sessionRow) session() *livesessions.Session {
	s := livesessions.Session(row)
	s.StartedAt, s.EndedAt = platform.UTCPtr(row.StartedAt), platform.UTCPtr(row.EndedAt)
	s.CreatedAt, s.UpdatedAt = row.CreatedAt.UTC(), row.UpdatedAt.UTC()
	return &s
}
