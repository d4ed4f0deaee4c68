package query

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/courses"
)

// CourseFacts is what another module may know about a course: the courses module's
// published query, so that nobody else reads the course tables or spells 'published'.
type CourseFacts struct {
	ID          string
	Title       string
	Status      string
	LessonCount int
}

// Published tells whether the course is on sale and open to enrollment.
func (f CourseFacts) Published() bool { return f.Status == string(courses.Published) }

// Catalog is the courses module's published read port (wired to other modules by the
// composition root through the Application's FindCourses and FindLessonCourse).
type Catalog interface {
	// Facts returns the courses among ids that are in the workspace, any status;
	// ids of unknown courses (or another workspace's) are absent from the map.
	Facts(ctx context.Context, workspaceID string, ids []string) (map[string]CourseFacts, error)
	// LessonCourse returns the id of the course holding the lesson, or kernel NotFound.
	LessonCourse(ctx context.Context, workspaceID, lessonID string) (string, error)
}

// FindCourses asks for the facts of some courses of a workspace.
type FindCourses struct {
	WorkspaceID string
	IDs         []string
}

// FindCourses returns the facts by course id; unknown ids are absent.
func (r Reads) FindCourses(ctx context.Context, q FindCourses) (map[string]CourseFacts, error) {
	if len(q.IDs) == 0 {
		return map[string]CourseFacts{}, nil
	}
	return r.Catalog.Facts(ctx, q.WorkspaceID, q.IDs)
}

// FindLessonCourse asks which course holds a lesson.
type FindLessonCourse struct {
	WorkspaceID string
	LessonID    string
}

// FindLessonCourse returns the course id, or kernel NotFound outside the workspace.
func (r Reads) FindLessonCourse(ctx context.Context, q FindLessonCourse) (string, error) {
	return r.Catalog.LessonCourse(ctx, q.WorkspaceID, q.LessonID)
}
