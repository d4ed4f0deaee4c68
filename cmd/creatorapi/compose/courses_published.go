package compose

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

// enrollmentCatalog answers enrollmentcmd.CourseCatalog.
type enrollmentCatalog struct{ app courses.Application }

// Course returns the course's state, or NotFound outside the workspace.
func (c enrollmentCatalog) Course(ctx context.Context, workspaceID, courseID string) (enrollmentcmd.CatalogCourse, error) {
	facts, err := c.app.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: []string{courseID}})
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
func (c enrollmentCatalog) LessonCourse(ctx context.Context, workspaceID, lessonID string) (string, error) {
	return c.app.Queries.FindLessonCourse.Handle(ctx, query.FindLessonCourse{WorkspaceID: workspaceID, LessonID: lessonID})
}

// orderCatalog answers ordercmd.CourseCatalog: only published courses are sellable.
type orderCatalog struct{ app courses.Application }

// PublishedTitles maps each published course among ids to its title.
func (c orderCatalog) PublishedTitles(ctx context.Context, workspaceID string, ids []string) (map[string]string, error) {
	facts, err := c.app.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: ids})
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

// sessionCourses answers livesessioncmd.CourseDirectory (any status).
type sessionCourses struct{ app courses.Application }

// Exists tells whether the course is in the workspace.
func (c sessionCourses) Exists(ctx context.Context, workspaceID, courseID string) (bool, error) {
	facts, err := c.app.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: []string{courseID}})
	if err != nil {
		return false, err
	}
	_, ok := facts[courseID]
	return ok, nil
}

// studentCourseLessons answers studentquery.CourseLessons.
type studentCourseLessons struct{ app courses.Application }

// LessonCounts maps each course among ids to its lesson count.
func (c studentCourseLessons) LessonCounts(ctx context.Context, workspaceID string, ids []string) (map[string]int, error) {
	facts, err := c.app.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: workspaceID, IDs: ids})
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
	_ enrollmentcmd.CourseCatalog    = enrollmentCatalog{}
	_ ordercmd.CourseCatalog         = orderCatalog{}
	_ livesessioncmd.CourseDirectory = sessionCourses{}
	_ studentquery.CourseLessons     = studentCourseLessons{}
)
