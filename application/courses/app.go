// Package courses is the application service of the course catalogue.
package courses

import (
	"github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	CreateCourse  platform.Handler[command.CreateCourse, query.CourseDetail]
	AddModule     platform.Handler[command.AddModule, query.Module]
	AddLesson     platform.Handler[command.AddLesson, query.Lesson]
	PublishCourse platform.Handler[command.PublishCourse, query.CourseDetail]
	ArchiveCourse platform.Handler[command.ArchiveCourse, query.CourseDetail]
}

// Queries read state.
type Queries struct {
	ListPublished  platform.Handler[query.ListPublishedCourses, platform.Page[query.Course]]
	GetCourse      platform.Handler[query.GetCourse, query.CourseDetail]
	CatalogVersion platform.Handler[string, int64]
	// Published to other modules (the composition root adapts them to their ports).
	FindCourses      platform.Handler[query.FindCourses, map[string]query.CourseFacts]
	FindLessonCourse platform.Handler[query.FindLessonCourse, string]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d command.Deps) Application {
	reads := query.Reads{ReadModel: d.ReadModel, Catalog: d.Catalog}
	return Application{
		Commands: Commands{
			CreateCourse:  platform.Command("create course", d.Tx, d.Observer, d.CreateCourse),
			AddModule:     platform.Command("add module", d.Tx, d.Observer, d.AddModule),
			AddLesson:     platform.Command("add lesson", d.Tx, d.Observer, d.AddLesson),
			PublishCourse: platform.Command("publish course", d.Tx, d.Observer, d.PublishCourse),
			ArchiveCourse: platform.Command("archive course", d.Tx, d.Observer, d.ArchiveCourse),
		},
		Queries: Queries{
			ListPublished:    platform.Query("list published courses", d.Observer, reads.ListPublishedCourses),
			GetCourse:        platform.Query("get course", d.Observer, reads.GetCourse),
			CatalogVersion:   platform.Query("catalog version", d.Observer, reads.CatalogVersion),
			FindCourses:      platform.Query("find courses", d.Observer, reads.FindCourses),
			FindLessonCourse: platform.Query("find lesson course", d.Observer, reads.FindLessonCourse),
		},
	}
}
