// Package enrollments is the application service of enrollments and lesson progress.
package enrollments

import (
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state. GrantEnrollment and RevokeEnrollment are also the contract
// the orders module calls inside its own transactions.
type Commands struct {
	GrantEnrollment  platform.Handler[command.GrantEnrollment, platform.Upsert[query.Enrollment]]
	RevokeEnrollment platform.Handler[command.RevokeEnrollment, query.Enrollment]
	// RecordProgress: Created is false when the lesson was completed before.
	RecordProgress platform.Handler[command.RecordProgress, platform.Upsert[query.LessonProgress]]
}

// Queries read state.
type Queries struct {
	GetEnrollment platform.Handler[query.GetEnrollment, query.Enrollment]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d command.Deps, rm query.ReadModel) Application {
	return Application{
		Commands: Commands{
			GrantEnrollment:  platform.Command("grant enrollment", d.Tx, d.Observer, command.NewGrantEnrollmentHandler(d)),
			RevokeEnrollment: platform.Command("revoke enrollment", d.Tx, d.Observer, command.NewRevokeEnrollmentHandler(d)),
			RecordProgress:   platform.Command("record progress", d.Tx, d.Observer, command.NewRecordProgressHandler(d)),
		},
		Queries: Queries{
			GetEnrollment: platform.Query("get enrollment", d.Observer, query.NewGetEnrollmentHandler(rm)),
		},
	}
}
