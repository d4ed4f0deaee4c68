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

// Queries read state. FindStudentEnrollments, FindEnrollmentOfPair and FirstActivity
// are the module's published queries: other modules read enrollments only through them
// (adapted to their own ports in adapters/modulelinks/enrollments.go).
type Queries struct {
	GetEnrollment          platform.Handler[query.GetEnrollment, query.Enrollment]
	FindStudentEnrollments platform.Handler[query.FindStudentEnrollments, map[string][]query.Facts]
	FindEnrollmentOfPair   platform.Handler[query.FindEnrollmentOfPair, query.Facts]
	FirstActivity          platform.Handler[struct{}, platform.Earliest]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d command.Deps, rm query.ReadModel, published query.Published) Application {
	reads := query.Reads{ReadModel: rm, Published: published}
	return Application{
		Commands: Commands{
			GrantEnrollment:  platform.Command("grant enrollment", d.Tx, d.Observer, d.GrantEnrollment),
			RevokeEnrollment: platform.Command("revoke enrollment", d.Tx, d.Observer, d.RevokeEnrollment),
			RecordProgress:   platform.Command("record progress", d.Tx, d.Observer, d.RecordProgress),
		},
		Queries: Queries{
			GetEnrollment: platform.Query("get enrollment", d.Observer, reads.GetEnrollment),
			FindStudentEnrollments: platform.Query("find student enrollments", d.Observer,
				reads.FindStudentEnrollments),
			FindEnrollmentOfPair: platform.Query("find enrollment of pair", d.Observer,
				reads.FindEnrollmentOfPair),
			FirstActivity: platform.Query("first enrollment activity", d.Observer, platform.EarliestFunc(published.FirstActivity).Handle),
		},
	}
}
