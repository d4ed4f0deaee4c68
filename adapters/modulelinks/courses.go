package modulelinks

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/courses/query"
	enrollmentcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	livesessioncmd "github.com/creatorapi/creatorapi/application/livesessions/command"
	ordercmd "github.com/creatorapi/creatorapi/application/orders/command"
	studentquery "github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// The courses module's published queries, adapted to the small port each consumer
// declares in its own application package. Nobody else reads the course tables.

// EnrollmentCatalog answers enrollmentcmd.CourseCatalog.
type EnrollmentCatalog struct{ App courses.Application }

// Course returns the course's state, or NotFound outside the workspace.
func (c EnrollmentCatalog) Course(ctx context.Context, workspaceID, courseID string) (enrollmentcmd.CatalogCourse, error) {
	facts, err := c.App.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: []string{courseID}})
	if err != nil {
		return enrollmentcmd.CatalogCourse{}, err
	}
	f, ok := facts[courseID]
	if !ok {
		return enrollmentcmd.CatalogCourse{}, kernel.NotFound("course %s not found", courseID)
	}
	return enrollmentcmd.CatalogCourse{ID: f.ID, Published: f.Published(), LessonCount: f.LessonCount}, nil
}

// LessonCourse returns the course of a lesson, or NotFound outside the workspace.
func (c EnrollmentCatalog) LessonCourse(ctx context.Context, workspaceID, lessonID string) (string, error) {
	return c.App.Queries.FindLessonCourse.Handle(ctx, query.FindLessonCourse{WorkspaceID: workspaceID, LessonID: lessonID})
}

// OrderCatalog answers ordercmd.CourseCatalog: only published courses are sellable.
type OrderCatalog struct{ App courses.Application }

// PublishedTitles maps each published course among ids to its title.
func (c OrderCatalog) PublishedTitles(ctx context.Context, workspaceID string, ids []string) (map[string]string, error) {
	facts, err := c.App.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: ids})
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(facts))
	for id, f := range facts {
		if f.Published() {
			out[id] = f.Title
		}
	}
	return out, nil
}

// SessionCourses answers livesessioncmd.CourseDirectory (any status).
type SessionCourses struct{ App courses.Application }

// Exists tells whether the course is in the workspace.
func (c SessionCourses) Exists(ctx context.Context, workspaceID, courseID string) (bool, error) {
	facts, err := c.App.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: []string{courseID}})
	if err != nil {
		return false, err
	}
	_, ok := facts[courseID]
	return ok, nil
}

// StudentCourseLessons answers studentquery.CourseLessons.
type StudentCourseLessons struct{ App courses.Application }

// LessonCounts maps each course among ids to its lesson count.
func (c StudentCourseLessons) LessonCounts(ctx context.Context, workspaceID string, ids []string) (map[string]int, error) {
	facts, err := c.App.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: ids})
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(facts))
	for id, f := range facts {
		out[id] = f.LessonCount
	}
	return out, nil
}

// The adapters satisfy the consumers' ports.
var (
	_ enrollmentcmd.CourseCatalog    = EnrollmentCatalog{}
	_ ordercmd.CourseCatalog         = OrderCatalog{}
	_ livesessioncmd.CourseDirectory = SessionCourses{}
	_ studentquery.CourseLessons     = StudentCourseLessons{}
)
