package enrollments

import (
	"time"

	"github.com/creatorapi/creatorapi/domain/enrollments"
)

// The enrollments table's columns, shared by the repository and the reads.
const enrollmentColumns = `id, workspace_id, student_id, course_id, status, source, created_at, updated_at, revoked_at, completed_at`

type enrollmentRow struct {
	ID          string     `db:"id"`
	WorkspaceID string     `db:"workspace_id"`
	StudentID   string     `db:"student_id"`
	CourseID    string     `db:"course_id"`
	Status      string     `db:"status"`
	Source      string     `db:"source"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
	RevokedAt   *time.Time `db:"revoked_at"`
	CompletedAt *time.Time `db:"completed_at"`
}

func (row enrollmentRow) enrollment() *enrollments.Enrollment {
	return &enrollments.Enrollment{
		ID: row.ID, WorkspaceID: row.WorkspaceID, StudentID: row.StudentID, CourseID: row.CourseID,
		Status: enrollments.Status(row.Status), Source: enrollments.Source(row.Source),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
		RevokedAt: utc(row.RevokedAt), CompletedAt: utc(row.CompletedAt),
	}
}

// utc reads a nullable instant in UTC.
func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
