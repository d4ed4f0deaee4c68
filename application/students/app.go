// Package students is the application service of a workspace's students.
package students

import (
	"github.com/creatorapi/creatorapi/application/platform"
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
	CreateStudent platform.Handler[command.CreateStudent, platform.Upsert[query.Student]]
	UpdateStudent platform.Handler[command.UpdateStudent, query.Student]
	DeleteStudent platform.Handler[command.DeleteStudent, query.Student]
}

// Queries read state.
type Queries struct {
	ListStudents platform.Handler[query.ListStudents, platform.Page[query.Student]]
	GetStudent   platform.Handler[query.GetStudent, query.Student]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			CreateStudent: platform.Command("create student", d.Tx, d.Observer, command.NewCreateStudentHandler(d)),
			UpdateStudent: platform.Command("update student", d.Tx, d.Observer, command.NewUpdateStudentHandler(d)),
			DeleteStudent: platform.Command("delete student", d.Tx, d.Observer, command.NewDeleteStudentHandler(d)),
		},
		Queries: Queries{
			ListStudents: platform.Query("list students", d.Observer, query.NewListStudentsHandler(d.ReadModel)),
			GetStudent:   platform.Query("get student", d.Observer, query.NewGetStudentHandler(d.ReadModel)),
		},
	}
}
