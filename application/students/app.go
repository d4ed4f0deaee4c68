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
	// UpsertStudents runs a batch, each item in its own transaction (command.Batch).
	UpsertStudents platform.Handler[command.UpsertStudents, []command.ItemResult]
}

// Queries read state.
type Queries struct {
	ListStudents platform.Handler[query.ListStudents, platform.Page[query.Student]]
	GetStudent   platform.Handler[query.GetStudent, query.Student]
}

// Directory is the module's published surface: what other modules may ask and tell
// the students module (adapted to their own ports in
// adapters/modulelinks/students.go). It is apart from Application because
// the student pages read enrollments while enrollments ask this directory: one value
// each keeps the graph acyclic.
type Directory struct {
	// StudentExists: enrollments, orders and certificates check their references.
	StudentExists platform.Handler[query.StudentExists, bool]
	// TouchStudent: enrollments tell that a student's enrollments changed.
	TouchStudent platform.Handler[command.TouchStudent, struct{}]
	// FirstCreated: the analytics rebuild guard asks since when students count.
	FirstCreated platform.Handler[struct{}, platform.Earliest]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d command.Deps) Application {
	reads := query.Reads{ReadModel: d.ReadModel, History: d.History}
	return Application{
		Commands: Commands{
			CreateStudent: platform.Command("create student", d.Tx, d.Observer, d.CreateStudent),
			UpdateStudent: platform.Command("update student", d.Tx, d.Observer, d.UpdateStudent),
			DeleteStudent: platform.Command("delete student", d.Tx, d.Observer, d.DeleteStudent),
			// No transaction around the batch: each item commits on its own, or under a
			// savepoint of the request's transaction when an Idempotency-Key holds one.
			UpsertStudents: platform.Query("upsert students", d.Observer, command.Batch{
				Item: platform.Item("upsert student", d.Tx, d.Observer, d.UpsertStudent),
			}.UpsertStudents),
		},
		Queries: Queries{
			ListStudents: platform.Query("list students", d.Observer, reads.ListStudents),
			GetStudent:   platform.Query("get student", d.Observer, reads.GetStudent),
		},
	}
}

// NewDirectory wires the published surface; d needs no History.
func NewDirectory(d command.Deps, published query.Published) Directory {
	return Directory{
		StudentExists: platform.Query("student exists", d.Observer, query.Reads{Published: published}.StudentExists),
		TouchStudent:  platform.Command("touch student", d.Tx, d.Observer, d.TouchStudent),
		FirstCreated:  platform.Query("first student created", d.Observer, platform.EarliestFunc(published.FirstCreated).Handle),
	}
}
