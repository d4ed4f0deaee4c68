// Package students is the application service of a workspace's students.
package students

import (
	"github.com/creatorapi/creatorapi/application/students/command"
	"github.com/creatorapi/creatorapi/application/students/query"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	CreateStudent command.CreateStudentHandler
	UpdateStudent command.UpdateStudentHandler
	DeleteStudent command.DeleteStudentHandler
}

// Queries read state.
type Queries struct {
	ListStudents query.ListStudentsHandler
	GetStudent   query.GetStudentHandler
}

// New wires the use cases to their ports.
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			CreateStudent: command.NewCreateStudentHandler(d),
			UpdateStudent: command.NewUpdateStudentHandler(d),
			DeleteStudent: command.NewDeleteStudentHandler(d),
		},
		Queries: Queries{
			ListStudents: query.NewListStudentsHandler(d.ReadModel),
			GetStudent:   query.NewGetStudentHandler(d.ReadModel),
		},
	}
}
