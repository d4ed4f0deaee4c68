package courses

import "time"

// The course tables' columns, shared by the repository and the read model.
const courseColumns = `id, workspace_id, slug, title, description, status, module_count, lesson_count, published_at, archived_at, created_at, updated_at`

type courseRow struct {
	ID          string     `db:"id"`
	WorkspaceID string     `db:"workspace_id"`
	Slug        string     `db:"slug"`
	Title       string     `db:"title"`
	Description string     `db:"description"`
	Status      string     `db:"status"`
	ModuleCount int        `db:"module_count"`
	LessonCount int        `db:"lesson_count"`
	PublishedAt *time.Time `db:"published_at"`
	ArchivedAt  *time.Time `db:"archived_at"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
}

type moduleRow struct {
	ID        string    `db:"id"`
	Title     string    `db:"title"`
	Position  int       `db:"position"`
	CreatedAt time.Time `db:"created_at"`
}

type lessonRow struct {
	ID              string    `db:"id"`
	ModuleID        string    `db:"module_id"`
	Title           string    `db:"title"`
	Type            string    `db:"type"`
	DurationSeconds int       `db:"duration_seconds"`
	Position        int       `db:"position"`
	CreatedAt       time.Time `db:"created_at"`
}
