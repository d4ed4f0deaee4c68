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

// ListPublishedCourses returns one page.
func (r Reads) ListPublishedCourses(ctx context.Context, q ListPublishedCourses) (platform.Page[Course], error) {
	return r.ReadModel.ListPublished(ctx, q.WorkspaceID, q.Page)
}
