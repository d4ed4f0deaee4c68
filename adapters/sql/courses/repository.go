// Package courses stores the course catalogue on PostgreSQL and SQLite (tables courses,
// course_modules, lessons, catalog_versions): the aggregate's repository, the read model
// of the course queries, and the catalogue other modules read through the courses module.
package courses

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Repository stores course aggregates (courses.Repository): the course row, its modules and its lessons.
type Repository struct {
	db                                           *sqldb.DB
	insert, get, getByModule, slugTaken, update  string
	modules, lessons, insertModule, insertLesson string
	bumpVersion                                  string
}

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{
		db:     db,
		insert: db.Rebind(`INSERT INTO courses (` + courseColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		// Commands load the aggregate inside their transaction: lock it so that concurrent
		// additions cannot both take the same position.
		get: db.Rebind(`SELECT ` + courseColumns + ` FROM courses WHERE workspace_id = ? AND id = ?` + db.ForUpdate()),
		getByModule: db.Rebind(`SELECT c.id FROM courses c JOIN course_modules m ON m.course_id = c.id
			WHERE c.workspace_id = ? AND m.id = ?`),
		slugTaken: db.Rebind(`SELECT 1 FROM courses WHERE workspace_id = ? AND slug = ?`),
		update: db.Rebind(`UPDATE courses SET title = ?, description = ?, status = ?, module_count = ?, lesson_count = ?,
			published_at = ?, archived_at = ?, updated_at = ? WHERE workspace_id = ? AND id = ?`),
		modules:      db.Rebind(`SELECT id, title, position, created_at FROM course_modules WHERE course_id = ? ORDER BY position`),
		lessons:      db.Rebind(`SELECT id, module_id, title, type, duration_seconds, position, created_at FROM lessons WHERE course_id = ? ORDER BY position`),
		insertModule: db.Rebind(`INSERT INTO course_modules (id, workspace_id, course_id, title, position, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
		bumpVersion: db.Rebind(`INSERT INTO catalog_versions (workspace_id, version) VALUES (?, 1)
			ON CONFLICT (workspace_id) DO UPDATE SET version = catalog_versions.version + 1`),
		insertLesson: db.Rebind(`INSERT INTO lessons (id, workspace_id, course_id, module_id, title, type, duration_seconds, position, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
	}
}

// Add inserts a new course (without curriculum: a new course has none).
func (r *Repository) Add(ctx context.Context, c *courses.Course) error {
	_, err := r.db.Write(ctx).ExecContext(ctx, r.insert, c.ID, c.WorkspaceID, c.Slug, c.Title, c.Description, string(c.Status),
		len(c.Modules), c.LessonCount(), c.PublishedAt, c.ArchivedAt, c.CreatedAt, c.UpdatedAt)
	if sqldb.IsUniqueViolation(err) {
		return kernel.Invalid("slug", "slug %q is already used by another course", c.Slug)
	}
	if err != nil {
		return fmt.Errorf("insert course: %w", err)
	}
	return r.bump(ctx, c.WorkspaceID)
}

// bump moves the workspace's catalogue version in the caller's transaction.
func (r *Repository) bump(ctx context.Context, workspaceID string) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.bumpVersion, workspaceID); err != nil {
		return fmt.Errorf("bump catalogue version: %w", err)
	}
	return nil
}

// SlugTaken tells whether a course of the workspace uses slug.
func (r *Repository) SlugTaken(ctx context.Context, workspaceID, slug string) (bool, error) {
	var one int
	err := r.db.Read(ctx).GetContext(ctx, &one, r.slugTaken, workspaceID, slug)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("slug taken: %w", err)
	}
	return true, nil
}

// Get loads the aggregate with its curriculum, locked for the caller's transaction.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*courses.Course, error) {
	q := r.db.Write(ctx)
	var row courseRow
	err := q.GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("course %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get course: %w", err)
	}
	c := &courses.Course{
		ID: row.ID, WorkspaceID: row.WorkspaceID, Slug: row.Slug, Title: row.Title, Description: row.Description,
		Status: courses.Status(row.Status), PublishedAt: platform.UTCPtr(row.PublishedAt), ArchivedAt: platform.UTCPtr(row.ArchivedAt),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
	var mods []moduleRow
	if err := q.SelectContext(ctx, &mods, r.modules, id); err != nil {
		return nil, fmt.Errorf("get modules: %w", err)
	}
	var less []lessonRow
	if err := q.SelectContext(ctx, &less, r.lessons, id); err != nil {
		return nil, fmt.Errorf("get lessons: %w", err)
	}
	index := map[string]int{}
	for i, m := range mods {
		index[m.ID] = i
		c.Modules = append(c.Modules, courses.Module{ID: m.ID, Title: m.Title, Position: m.Position, CreatedAt: m.CreatedAt.UTC()})
	}
	for _, l := range less {
		m := &c.Modules[index[l.ModuleID]]
		m.Lessons = append(m.Lessons, courses.Lesson{ID: l.ID, Title: l.Title, Type: courses.LessonType(l.Type),
			DurationSeconds: l.DurationSeconds, Position: l.Position, CreatedAt: l.CreatedAt.UTC()})
	}
	return c, nil
}

// GetByModule loads the aggregate owning moduleID.
func (r *Repository) GetByModule(ctx context.Context, workspaceID, moduleID string) (*courses.Course, error) {
	var courseID string
	err := r.db.Write(ctx).GetContext(ctx, &courseID, r.getByModule, workspaceID, moduleID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("module %s not found", moduleID)
	}
	if err != nil {
		return nil, fmt.Errorf("find module: %w", err)
	}
	return r.Get(ctx, workspaceID, courseID)
}

// Update saves the course row and inserts the modules and lessons not stored yet
// (the curriculum only grows through the aggregate).
func (r *Repository) Update(ctx context.Context, c *courses.Course) error {
	q := r.db.Write(ctx)
	_, err := q.ExecContext(ctx, r.update, c.Title, c.Description, string(c.Status), len(c.Modules), c.LessonCount(),
		c.PublishedAt, c.ArchivedAt, c.UpdatedAt, c.WorkspaceID, c.ID)
	if err != nil {
		return fmt.Errorf("update course: %w", err)
	}
	for _, m := range c.Modules {
		if _, err := q.ExecContext(ctx, r.insertModule, m.ID, c.WorkspaceID, c.ID, m.Title, m.Position, m.CreatedAt); err != nil {
			return fmt.Errorf("insert module: %w", err)
		}
		for _, l := range m.Lessons {
			if _, err := q.ExecContext(ctx, r.insertLesson, l.ID, c.WorkspaceID, c.ID, m.ID, l.Title, string(l.Type),
				l.DurationSeconds, l.Position, l.CreatedAt); err != nil {
				return fmt.Errorf("insert lesson: %w", err)
			}
		}
	}
	return r.bump(ctx, c.WorkspaceID)
}
