package enrollments

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Progress stores lesson completions (lesson_progress), one per enrollment and lesson.
type Progress struct {
	sqldb.Prepared[progressStatements]
}

type progressStatements struct{ Insert, Get, Count string }

// NewProgress prepares the statements for db's dialect.
func NewProgress(db *sqldb.DB) *Progress {
	return &Progress{sqldb.Prepare(db, progressStatements{
		Insert: `INSERT INTO lesson_progress (workspace_id, enrollment_id, student_id, course_id, lesson_id, completed_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (enrollment_id, lesson_id) DO NOTHING`,
		Get: `SELECT workspace_id, enrollment_id, student_id, course_id, lesson_id, completed_at FROM lesson_progress
			WHERE workspace_id = ? AND enrollment_id = ? AND lesson_id = ?`,
		Count: `SELECT COUNT(*) FROM lesson_progress WHERE workspace_id = ? AND enrollment_id = ?`,
	})}
}

// Add records c unless the lesson was completed already; added tells which.
func (p *Progress) Add(ctx context.Context, c enrollments.LessonCompletion) (bool, error) {
	return p.DB.Changes(ctx, "insert lesson progress", p.Q.Insert, c.WorkspaceID, c.EnrollmentID, c.StudentID, c.CourseID, c.LessonID, c.CompletedAt)
}

// Get returns the recorded completion or NotFound.
func (p *Progress) Get(ctx context.Context, workspaceID, enrollmentID, lessonID string) (enrollments.LessonCompletion, error) {
	var c enrollments.LessonCompletion
	err := sqldb.One(ctx, p.DB.Read(ctx), &c, kernel.NotFound("lesson %s not completed", lessonID), p.Q.Get, workspaceID, enrollmentID, lessonID)
	return c, err
}

// Count returns how many lessons the enrollment completed.
func (p *Progress) Count(ctx context.Context, workspaceID, enrollmentID string) (int, error) {
	var n int
	if err := p.DB.Read(ctx).GetContext(ctx, &n, p.Q.Count, workspaceID, enrollmentID); err != nil {
		return 0, fmt.Errorf("count lesson progress: %w", err)
	}
	return n, nil
}
