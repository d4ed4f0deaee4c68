// Package enrollments is the application service of enrollments and lesson progress.
package enrollments

import (
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state. GrantEnrollment and RevokeEnrollment are also the contract
// the orders module calls inside its own transactions.
type Commands struct {
	GrantEnrollment  command.GrantEnrollmentHandler
	RevokeEnrollment command.RevokeEnrollmentHandler
	RecordProgress   command.RecordProgressHandler
}

// Queries read state.
type Queries struct {
	GetEnrollment query.GetEnrollmentHandler
}

// New wires the use cases to their ports.
func New(d command.Deps, rm query.ReadModel) Application {
	return Application{
		Commands: Commands{
			GrantEnrollment:  command.NewGrantEnrollmentHandler(d),
			RevokeEnrollment: command.NewRevokeEnrollmentHandler(d),
			RecordProgress:   command.NewRecordProgressHandler(d),
		},
		Queries: Queries{
			GetEnrollment: query.NewGetEnrollmentHandler(rm),
		},
	}
}
