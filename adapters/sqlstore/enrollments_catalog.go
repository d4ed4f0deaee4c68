package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// EnrollmentCatalog is the enrollments module's view of the course tables: whether a
// course is published, how many lessons it has, which course a lesson belongs to.
type EnrollmentCatalog struct {
	db             *sqldb.DB
	course, lesson string
}

// NewEnrollmentCatalog prepares the statements for db's dialect.
func NewEnrollmentCatalog(db *sqldb.DB) *EnrollmentCatalog {
	return &EnrollmentCatalog{
		db:     db,
		course: db.Rebind(`SELECT id, status, lesson_count FROM courses WHERE workspace_id = ? AND id = ?`),
		lesson: db.Rebind(`SELECT course_id FROM lessons WHERE workspace_id = ? AND id = ?`),
	}
}

// Course returns the course's state, or NotFound outside the workspace.
func (c *EnrollmentCatalog) Course(ctx context.Context, workspaceID, courseID string) (command.CatalogCourse, error) {
	var row struct {
		ID          string `db:"id"`
		Status      string `db:"status"`
		LessonCount int    `db:"lesson_count"`
	}
	err := c.db.Read(ctx).GetContext(ctx, &row, c.course, workspaceID, courseID)
	if errors.Is(err, sql.ErrNoRows) {
		return command.CatalogCourse{}, kernel.NotFound("course %s not found", courseID)
	}
	if err != nil {
		return command.CatalogCourse{}, fmt.Errorf("catalog course: %w", err)
	}
	return command.CatalogCourse{ID: row.ID, Published: row.Status == "published", LessonCount: row.LessonCount}, nil
}

// LessonCourse returns the course of a lesson, or NotFound outside the workspace.
func (c *EnrollmentCatalog) LessonCourse(ctx context.Context, workspaceID, lessonID string) (string, error) {
	var courseID string
	err := c.db.Read(ctx).GetContext(ctx, &courseID, c.lesson, workspaceID, lessonID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", kernel.NotFound("lesson %s not found", lessonID)
	}
	if err != nil {
		return "", fmt.Errorf("catalog lesson: %w", err)
	}
	return courseID, nil
}
