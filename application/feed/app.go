// Package feed is the application service of the events feed: the workspace's events as
// the webhook envelope, read after a cursor, long polled or streamed by the public API.
// It has no domain of its own: the outbox (the events module's tables) is its source.
package feed

import (
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/feed/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Queries Queries
}

// Queries read the feed.
type Queries struct {
	ListEvents platform.Handler[query.ListEvents, query.Page]
	GetEvent   platform.Handler[query.GetEvent, events.Envelope]
}

// New wires the use cases to their ports.
func New(reads query.Reads, obs platform.Observer) Application {
	return Application{Queries: Queries{
		ListEvents: platform.Query("list events", obs, reads.ListEvents),
		GetEvent:   platform.Query("get event", obs, reads.GetEvent),
	}}
}
