package courses

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Reads answers course queries from the course tables.
type Reads struct {
	db                                 *sqldb.DB
	firstPage, nextPage, get, curricul string
	lessons, version                   string
}

// NewReads prepares the statements for db's dialect.
func NewReads(db *sqldb.DB) *Reads {
	const published = `SELECT ` + courseColumns + ` FROM courses WHERE workspace_id = ? AND status = 'published'`
	const order = ` ORDER BY created_at DESC, id DESC LIMIT ?`
	return &Reads{
		db:        db,
		firstPage: db.Rebind(published + order),
		nextPage:  db.Rebind(published + ` AND (created_at < ? OR (created_at = ? AND id < ?))` + order),
		get:       db.Rebind(`SELECT ` + courseColumns + ` FROM courses WHERE workspace_id = ? AND id = ?`),
		curricul:  db.Rebind(`SELECT id, title, position, created_at FROM course_modules WHERE course_id = ? ORDER BY position`),
		version:   db.Rebind(`SELECT version FROM catalog_versions WHERE workspace_id = ?`),
		lessons:   db.Rebind(`SELECT id, module_id, title, type, duration_seconds, position, created_at FROM lessons WHERE course_id = ? ORDER BY position`),
	}
}

func (row courseRow) view() query.Course {
	return query.Course{
		ID: row.ID, Slug: row.Slug, Title: row.Title, Description: row.Description, Status: row.Status,
		PublishedAt: platform.UTCPtr(row.PublishedAt), ArchivedAt: platform.UTCPtr(row.ArchivedAt),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
		ModuleCount: row.ModuleCount, LessonCount: row.LessonCount,
	}
}

// ListPublished returns one keyset page of published courses, newest first.
func (r *Reads) ListPublished(ctx context.Context, workspaceID string, page platform.PageRequest) (platform.Page[query.Course], error) {
	var rows []courseRow
	var err error
	if page.After == nil {
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.firstPage, workspaceID, page.Fetch())
	} else {
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.nextPage, workspaceID,
			page.After.CreatedAt, page.After.CreatedAt, page.After.ID, page.Fetch())
	}
	if err != nil {
		return platform.Page[query.Course]{}, fmt.Errorf("list courses: %w", err)
	}
	cut := platform.CutPage(rows, page, func(row courseRow) platform.Position {
		return platform.Position{CreatedAt: row.CreatedAt, ID: row.ID}
	})
	return platform.MapPage(cut, func(rows []courseRow) ([]query.Course, error) {
		out := make([]query.Course, len(rows))
		for i, row := range rows {
			out[i] = row.view()
		}
		return out, nil
	})
}

// Get returns the course with its curriculum, any status, or NotFound.
func (r *Reads) Get(ctx context.Context, workspaceID, id string) (query.CourseDetail, error) {
	q := r.db.Read(ctx)
	var row courseRow
	err := q.GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return query.CourseDetail{}, kernel.NotFound("course %s not found", id)
	}
	if err != nil {
		return query.CourseDetail{}, fmt.Errorf("get course: %w", err)
	}
	var mods []moduleRow
	if err := q.SelectContext(ctx, &mods, r.curricul, id); err != nil {
		return query.CourseDetail{}, fmt.Errorf("get modules: %w", err)
	}
	var less []lessonRow
	if err := q.SelectContext(ctx, &less, r.lessons, id); err != nil {
		return query.CourseDetail{}, fmt.Errorf("get lessons: %w", err)
	}
	detail := query.CourseDetail{Course: row.view(), Modules: make([]query.Module, len(mods))}
	index := map[string]int{}
	for i, m := range mods {
		index[m.ID] = i
		detail.Modules[i] = query.Module{ID: m.ID, Title: m.Title, Position: m.Position, Lessons: []query.Lesson{}}
	}
	for _, l := range less {
		m := &detail.Modules[index[l.ModuleID]]
		m.Lessons = append(m.Lessons, query.Lesson{ID: l.ID, Title: l.Title, Position: l.Position, Type: l.Type, DurationSeconds: l.DurationSeconds})
	}
	return detail, nil
}

// CatalogVersion returns the workspace's catalogue version (0 before any course exists).
func (r *Reads) CatalogVersion(ctx context.Context, workspaceID string) (int64, error) {
	var v int64
	err := r.db.Read(ctx).GetContext(ctx, &v, r.version, workspaceID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("catalogue version: %w", err)
	}
	return v, nil
}
