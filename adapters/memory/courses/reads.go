package courses

import (
	"context"
	"sort"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// ListPublished returns one keyset page of published courses, newest first
// (created_at DESC, id DESC, as on the databases).
func (s Reads) ListPublished(_ context.Context, workspaceID string, page platform.PageRequest) (platform.Page[query.Course], error) {
	s.mu.RLock()
	var all []*courses.Course
	for _, c := range s.courses {
		if c.WorkspaceID == workspaceID && c.Status == courses.Published {
			all = append(all, c)
		}
	}
	s.mu.RUnlock()
	sort.Slice(all, func(a, b int) bool {
		if !all[a].CreatedAt.Equal(all[b].CreatedAt) {
			return all[a].CreatedAt.After(all[b].CreatedAt)
		}
		return all[a].ID > all[b].ID
	})
	out := platform.Page[query.Course]{Items: []query.Course{}}
	for _, c := range all {
		if after := page.After; after != nil &&
			!(c.CreatedAt.Before(after.CreatedAt) || (c.CreatedAt.Equal(after.CreatedAt) && c.ID < after.ID)) {
			continue
		}
		if len(out.Items) == page.Limit {
			out.HasMore = true
			last := out.Items[len(out.Items)-1]
			out.Next = &platform.Position{CreatedAt: last.CreatedAt, ID: last.ID}
			break
		}
		out.Items = append(out.Items, query.FromDomain(c).Course)
	}
	return out, nil
}

// Get returns the course with its curriculum, any status, or NotFound.
func (s Reads) Get(_ context.Context, workspaceID, id string) (query.CourseDetail, error) {
	c, err := s.getAggregate(workspaceID, id)
	if err != nil {
		return query.CourseDetail{}, err
	}
	return query.FromDomain(c), nil
}

// CatalogVersion returns the workspace's catalogue version (0 before any course exists).
func (s Reads) CatalogVersion(_ context.Context, workspaceID string) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.versions[workspaceID], nil
}

func (s *Store) getAggregate(workspaceID, id string) (*courses.Course, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.find(workspaceID, id)
	if !ok {
		return nil, kernel.NotFound("course %s not found", id)
	}
	return clone(c), nil
}
