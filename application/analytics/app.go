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
	GetDaily   platform.Handler[query.GetSummary, query.Daily] // the summary's window day by day (the dashboard's charts)
	// CheckRebuild refuses a rebuild from an outbox that retention pruned of counted facts.
	CheckRebuild platform.Handler[query.CheckRebuild, struct{}]
}

// Deps are the module's ports.
type Deps struct {
	command.Deps // Kit and the projection
	Reads        query.Reads
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d Deps) Application {
	return Application{
		Commands: Commands{ApplyEvent: platform.Command("apply event to analytics", d.Tx, d.Observer, d.ApplyEvent)},
		Queries: Queries{
			GetSummary:   platform.Query("get analytics summary", d.Observer, d.Reads.GetSummary),
			GetDaily:     platform.Query("get analytics by day", d.Observer, d.Reads.GetDaily),
			CheckRebuild: platform.Query("check analytics rebuild", d.Observer, d.Reads.CheckRebuild),
		},
	}
}
