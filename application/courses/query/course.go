// Package query reads courses as integrators see them.
package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// The course as the API shows it is the payload of course.published and course.archived
// (application/events).
type (
	Course       = events.Course
	CourseDetail = events.CourseDetail
	Module       = events.Module
	Lesson       = events.Lesson
)

// ReadModel answers course queries; every method is scoped to one workspace.
type ReadModel interface {
	ListPublished(ctx context.Context, workspaceID string, page platform.PageRequest) (platform.Page[Course], error)
	// PublishedBySlug returns the published course with this slug, or kernel NotFound.
	PublishedBySlug(ctx context.Context, workspaceID, slug string) (Course, error)
	// Get returns any status; kernel NotFound when the course is not in the workspace.
	Get(ctx context.Context, workspaceID, id string) (CourseDetail, error)
	// CatalogVersion changes, in the same transaction, whenever a course of the workspace does.
	CatalogVersion(ctx context.Context, workspaceID string) (int64, error)
}
