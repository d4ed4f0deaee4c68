// Package courses stores the course catalogue on PostgreSQL and SQLite (tables courses,
// course_modules, lessons, catalog_versions): the aggregate's repository, the read model
// of the course queries, and the catalogue other modules read through the courses module.
package courses

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Repository stores course aggregates (courses.Repository): the course row, its modules and its lessons.
type Repository struct {
	db                                      *sqldb.DB
	insert, getByModule, slugTaken, update  string
	insertModule, insertLesson, bumpVersion string
	aggregate                               curriculum
}

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{
		db:     db,
		insert: db.Rebind(`INSERT INTO courses (` + courseColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		// Commands load the aggregate inside their transaction: lock it so that concurrent
		// additions cannot both take the same position.
		aggregate: curriculum{
			course:  db.Rebind(`SELECT ` + courseColumns + ` FROM courses WHERE workspace_id = ? AND id = ?` + db.ForUpdate()),
			modules: db.Rebind(`SELECT ` + moduleColumns + ` FROM course_modules WHERE course_id = ? ORDER BY position`),
			lessons: db.Rebind(`SELECT ` + lessonColumns + ` FROM lessons WHERE course_id = ? ORDER BY position`),
		},
		getByModule: db.Rebind(`SELECT c.id FROM courses c JOIN course_modules m ON m.course_id = c.id
			WHERE c.workspace_id = ? AND m.id = ?`),
		slugTaken: db.Rebind(`SELECT 1 FROM courses WHERE workspace_id = ? AND slug = ?`),
		update: db.Rebind(`UPDATE courses SET title = ?, description = ?, status = ?, module_count = ?, lesson_count = ?,
			published_at = ?, archived_at = ?, updated_at = ? WHERE workspace_id = ? AND id = ?`),
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

// bump moves the workspace's catalogue version in the caller's transaction, and
// invalidates it in every instance's cache (the command returns once all have dropped it).
func (r *Repository) bump(ctx context.Context, workspaceID string) error {
	if err := r.db.Exec(ctx, "bump catalogue version", r.bumpVersion, workspaceID); err != nil {
		return err
	}
	return r.db.Caches().Invalidate(ctx, VersionCache, workspaceID)
}

// SlugTaken tells whether a course of the workspace uses slug.
func (r *Repository) SlugTaken(ctx context.Context, workspaceID, slug string) (bool, error) {
	return sqldb.Exists(ctx, r.db.Read(ctx), r.slugTaken, workspaceID, slug)
}

// Get loads the aggregate with its curriculum, locked for the caller's transaction.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*courses.Course, error) {
	return r.aggregate.load(ctx, r.db.Write(ctx), workspaceID, id)
}

// GetByModule loads the aggregate owning moduleID.
func (r *Repository) GetByModule(ctx context.Context, workspaceID, moduleID string) (*courses.Course, error) {
	var courseID string
	if err := sqldb.One(ctx, r.db.Write(ctx), &courseID, kernel.NotFound("module %s not found", moduleID), r.getByModule, workspaceID, moduleID); err != nil {
		return nil, err
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
