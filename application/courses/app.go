// Package courses is the application service of the course catalogue.
package courses

import (
	"github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/courses/query"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	CreateCourse  command.CreateCourseHandler
	AddModule     command.AddModuleHandler
	AddLesson     command.AddLessonHandler
	PublishCourse command.PublishCourseHandler
	ArchiveCourse command.ArchiveCourseHandler
}

// Queries read state.
type Queries struct {
	ListPublished  query.ListPublishedCoursesHandler
	GetCourse      query.GetCourseHandler
	CatalogVersion query.CatalogVersionHandler
}

// New wires the use cases to their ports.
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			CreateCourse:  command.NewCreateCourseHandler(d),
			AddModule:     command.NewAddModuleHandler(d),
			AddLesson:     command.NewAddLessonHandler(d),
			PublishCourse: command.NewPublishCourseHandler(d),
			ArchiveCourse: command.NewArchiveCourseHandler(d),
		},
		Queries: Queries{
			ListPublished:  query.NewListPublishedCoursesHandler(d.ReadModel),
			GetCourse:      query.NewGetCourseHandler(d.ReadModel),
			CatalogVersion: query.NewCatalogVersionHandler(d.ReadModel),
		},
	}
}
