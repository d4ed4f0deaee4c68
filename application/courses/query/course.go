// Package query reads courses as integrators see them.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Course is the list shape of a course.
type Course struct {
	ID          string     `json:"id"`
	Slug        string     `json:"slug"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Status      string     `json:"status"`
	PublishedAt *time.Time `json:"publishedAt"`
	ArchivedAt  *time.Time `json:"archivedAt"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
	ModuleCount int        `json:"moduleCount"`
	LessonCount int        `json:"lessonCount"`
}

// CourseDetail is a single course with its curriculum.
type CourseDetail struct {
	Course
	Modules []Module `json:"modules"`
}

// Module is a section of a course, in position order.
type Module struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Position int      `json:"position"`
	Lessons  []Lesson `json:"lessons"`
}

// Lesson is the metadata of one lesson.
type Lesson struct {
	ID              string `json:"id"`
	Title           string `json:"title"`
	Position        int    `json:"position"`
	Type            string `json:"type"`
	DurationSeconds int    `json:"durationSeconds"`
}

// ReadModel answers course queries; every method is scoped to one workspace.
type ReadModel interface {
	ListPublished(ctx context.Context, workspaceID string, page platform.PageRequest) (platform.Page[Course], error)
	// Get returns any status; kernel NotFound when the course is not in the workspace.
	Get(ctx context.Context, workspaceID, id string) (CourseDetail, error)
	// CatalogVersion changes, in the same transaction, whenever a course of the workspace does.
	CatalogVersion(ctx context.Context, workspaceID string) (int64, error)
}
