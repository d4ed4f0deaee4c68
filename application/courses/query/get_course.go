package query

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// GetCourse fetches one course. Public callers see published and archived courses;
// drafts exist only for operators (IncludeDrafts).
type GetCourse struct {
	WorkspaceID   string
	CourseID      string
	IncludeDrafts bool
}

// GetCourse returns NotFound for another workspace's course and, publicly, for a draft:
// a draft must be indistinguishable from a course that does not exist.
func (r Reads) GetCourse(ctx context.Context, q GetCourse) (CourseDetail, error) {
	c, err := r.ReadModel.Get(ctx, q.WorkspaceID, q.CourseID)
	if err != nil {
		return CourseDetail{}, err
	}
	if !q.IncludeDrafts && c.Status == string(courses.Draft) {
		return CourseDetail{}, kernel.NotFound("course %s not found", q.CourseID)
	}
	return c, nil
}
