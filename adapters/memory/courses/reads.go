package courses

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
)

// ListPublished returns one keyset page of published courses, newest first
// (created_at DESC, id DESC, as on the databases).
func (s Reads) ListPublished(_ context.Context, workspaceID string, page platform.PageRequest) (platform.Page[query.Course], error) {
	var all []query.Course
	for _, c := range s.courses.Select(func(c *courses.Course) bool { return c.WorkspaceID == workspaceID && c.Status == courses.Published }) {
		all = append(all, query.FromDomain(c).Course)
	}
	return platform.SeekPage(all, page, func(c query.Course) platform.Position {
		return platform.Position{CreatedAt: c.CreatedAt, ID: c.ID}
	}), nil
}

// Get returns the course with its curriculum, any status, or NotFound.
func (s Reads) Get(_ context.Context, workspaceID, id string) (query.CourseDetail, error) {
	c, err := s.courses.Get(workspaceID, id)
	if err != nil {
		return query.CourseDetail{}, err
	}
	return query.FromDomain(c), nil
}

// CatalogVersion returns the workspace's catalogue version (0 before any course exists).
func (s Reads) CatalogVersion(_ context.Context, workspaceID string) (int64, error) {
	s.courses.RLock()
	defer s.courses.RUnlock()
	return s.versions[workspaceID], nil
}
