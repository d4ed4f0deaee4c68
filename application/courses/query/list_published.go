package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// ListPublishedCourses asks for a page of a workspace's published courses, newest first;
// a Slug narrows it to the one course with that slug (slugs are unique per workspace).
type ListPublishedCourses struct {
	WorkspaceID string
	Slug        string
	Page        platform.PageRequest
}

// ListPublishedCourses returns one page. A slug that no published course has gives an
// empty page; one that no course could have (ValidateSlug) is 422 slug.
func (r Reads) ListPublishedCourses(ctx context.Context, q ListPublishedCourses) (platform.Page[Course], error) {
	if q.Slug == "" {
		return r.ReadModel.ListPublished(ctx, q.WorkspaceID, q.Page)
	}
	if err := courses.ValidateSlug(q.Slug); err != nil {
		return platform.Page[Course]{}, err
	}
	c, err := r.ReadModel.PublishedBySlug(ctx, q.WorkspaceID, q.Slug)
	if kernel.IsNotFound(err) {
		return platform.Page[Course]{Items: []Course{}}, nil
	}
	if err != nil {
		return platform.Page[Course]{}, err
	}
	return platform.Page[Course]{Items: []Course{c}}, nil
}
