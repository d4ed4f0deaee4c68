// Package analytics is the application service of the analytics summary. It has no
// domain of its own: it reads facts the other modules recorded.
package analytics

import (
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Queries Queries
}

// Queries read state.
type Queries struct {
	GetSummary query.GetSummaryHandler
}

// New wires the use cases to their ports.
func New(rm query.ReadModel, clock platform.Clock) Application {
	return Application{Queries: Queries{GetSummary: query.NewGetSummaryHandler(rm, clock)}}
}
