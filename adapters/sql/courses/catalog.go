package courses

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Catalog answers the courses module's published query (query.Catalog): what other
// modules may know about courses, read in the caller's transaction when there is one.
type Catalog struct {
	sqldb.Prepared[catalogStatements]
}

type catalogStatements struct{ Lesson string }

// NewCatalog prepares the statements for db's dialect.
func NewCatalog(db *sqldb.DB) *Catalog {
	return &Catalog{sqldb.Prepare(db, catalogStatements{
		Lesson: `SELECT course_id FROM lessons WHERE workspace_id = ? AND id = ?`,
	})}
}

// Facts returns the courses among ids in the workspace, any status.
func (c *Catalog) Facts(ctx context.Context, workspaceID string, ids []string) (map[string]query.CourseFacts, error) {
	out := make(map[string]query.CourseFacts, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	// IN (...) has as many placeholders as ids: expanded per call, then rebound.
	s, args, err := sqlx.In(`SELECT id, title, status, lesson_count FROM courses WHERE workspace_id = ? AND id IN (?)`, workspaceID, ids)
	if err != nil {
		return nil, fmt.Errorf("course facts: %w", err)
	}
	rows, err := sqldb.All[query.CourseFacts](ctx, c.DB.Read(ctx), c.DB.Rebind(s), args...)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out, nil
}

// LessonCourse returns the course of a lesson, or NotFound outside the workspace.
func (c *Catalog) LessonCourse(ctx context.Context, workspaceID, lessonID string) (string, error) {
	var courseID string
	err := sqldb.One(ctx, c.DB.Read(ctx), &courseID, kernel.NotFound("lesson %s not found", lessonID), c.Q.Lesson, workspaceID, lessonID)
	return courseID, err
}
