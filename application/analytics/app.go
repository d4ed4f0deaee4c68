// Package analytics is the application service of the analytics summary. It has no
// domain of its own: it projects the events other modules publish into a read model.
package analytics

import (
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change the read model.
type Commands struct {
	ApplyEvent command.ApplyEventHandler
}

// Queries read state.
type Queries struct {
	GetSummary query.GetSummaryHandler
}

// New wires the use cases to their ports.
func New(rm query.ReadModel, proj command.Projection, clock platform.Clock) Application {
	return Application{
		Commands: Commands{ApplyEvent: command.NewApplyEventHandler(proj, clock)},
		Queries:  Queries{GetSummary: query.NewGetSummaryHandler(rm, clock)},
	}
}
