// Package analytics is the application service of the analytics summary. It has no
// domain of its own: it projects the events other modules publish into a read model.
package analytics

import (
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change the read model.
type Commands struct {
	// ApplyEvent runs in the projection consumer's transaction (the decorator joins it).
	ApplyEvent platform.Handler[events.Envelope, struct{}]
}

// Queries read state.
type Queries struct {
	GetSummary platform.Handler[query.GetSummary, query.Summary]
}

// New wires the use cases to their ports, decorated in the one handler shape.
func New(rm query.ReadModel, backlog query.Backlog, proj command.Projection, clock platform.Clock, tx platform.Transactor, obs platform.Observer) Application {
	return Application{
		Commands: Commands{ApplyEvent: platform.Command("apply event to analytics", tx, obs, command.NewApplyEventHandler(proj, clock).Handle)},
		Queries:  Queries{GetSummary: platform.Query("get analytics summary", obs, query.NewGetSummaryHandler(rm, backlog, clock).Handle)},
	}
}
