package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
)

// ListPublishedCourses asks for a page of a workspace's published courses, newest first.
type ListPublishedCourses struct {
	WorkspaceID string
	Page        platform.PageRequest
}

// ListPublishedCoursesHandler handles ListPublishedCourses.
type ListPublishedCoursesHandler struct {
	rm ReadModel
}

// NewListPublishedCoursesHandler builds the handler.
func NewListPublishedCoursesHandler(rm ReadModel) ListPublishedCoursesHandler {
	return ListPublishedCoursesHandler{rm: rm}
}

// Handle returns one page.
func (h ListPublishedCoursesHandler) Handle(ctx context.Context, q ListPublishedCourses) (platform.Page[Course], error) {
	return h.rm.ListPublished(ctx, q.WorkspaceID, q.Page)
}
