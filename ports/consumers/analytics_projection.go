package consumers

import (
	"context"

	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/events"
)

// AnalyticsProjectionName is the consumer group of the analytics read model. Never rename
// it: a new name replays the stream from what retention left, onto the same tables.
const AnalyticsProjectionName = "analytics-projection"

// AnalyticsProjection folds every event into the analytics read model, in the
// subscriber's transaction; the router's ledger applies each event once.
func AnalyticsProjection(app analytics.Application) events.Consumer {
	return events.Consumer{
		Name: AnalyticsProjectionName,
		// The summary says how fresh it is (asOf): applying a second's events in one
		// transaction beats one transaction per event.
		Lazy: true,
		Handle: func(ctx context.Context, ev events.Envelope) error {
			_, err := app.Commands.ApplyEvent.Handle(ctx, ev)
			return err
		},
	}
}
