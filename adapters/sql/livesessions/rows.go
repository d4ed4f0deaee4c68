package livesessions

import (
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// The live_sessions table's columns, in the order of sessionRow's arguments.
const sessionColumns = `id, workspace_id, course_id, title, status, started_at, ended_at, created_at, updated_at`

type sessionRow struct {
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

func (row sessionRow) session() *livesessions.Session {
	return &livesessions.Session{
		ID: row.ID, WorkspaceID: row.WorkspaceID, CourseID: row.CourseID, Title: row.Title, Status: livesessions.Status(row.Status),
		StartedAt: platform.UTCPtr(row.StartedAt), EndedAt: platform.UTCPtr(row.EndedAt),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
}
