package query

import (
	"context"
	"fmt"

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
	page, err := h.rm.ListPublished(ctx, q.WorkspaceID, q.Page)
	if err != nil {
		return platform.Page[Course]{}, fmt.Errorf("list published courses: %w", err)
	}
	return page, nil
}
