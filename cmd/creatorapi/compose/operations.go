package compose

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	analyticscmd "github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/ports/cli/demo"
	"github.com/creatorapi/creatorapi/ports/consumers"
)

// The CLI's maintenance verbs reach the adapters only through the composition root:
// cmd/creatorapi asks for Operations (and demo.Marker) and never imports adapters.

// Results of the maintenance verbs, as the CLI prints them.
type (
	EventFailure = router.Failure
	EventReplay  = router.Replayed
	Rebuilt      = router.Rebuilt
)

// rebuildSlack is how much older than the oldest outbox event a source fact may be
// without proving a gap: a use case reads the clock before the outbox stamps its event.
const rebuildSlack = time.Minute

// Operations parks, replays and rebuilds what the event consumers processed.
type Operations struct {
	ledger     *router.Ledger
	consumers  []events.Consumer // every one, inline included (events parked before one became inline)
	positions  *router.Positions
	projection analyticscmd.Resetter
	// The published "since when do your facts count" of each module whose facts the
	// analytics read model counts.
	earliest []platform.Handler[struct{}, platform.Earliest]
}

// Maintenance provides Operations, the master-key rotation and the demo seeder's marker.
func Maintenance() fx.Option {
	return fx.Provide(
		func(l *router.Ledger, cs consumersParams, p *router.Positions, proj analyticscmd.Resetter,
			ens enrollments.Application, st students.Directory, ord orders.Application) *Operations {
			return &Operations{ledger: l, consumers: cs.Consumers, positions: p, projection: proj,
				earliest: []platform.Handler[struct{}, platform.Earliest]{
					ord.Queries.FirstActivity, ens.Queries.FirstActivity, st.FirstCreated}}
		},
		func(s *sqlstore.Settings) demo.Marker { return s },
		newKeyRotation,
	)
}

// FailedEvents lists the events consumer (all consumers when empty) parked after failing.
func (o *Operations) FailedEvents(ctx context.Context, consumer string) ([]EventFailure, error) {
	return o.ledger.Failures(ctx, consumer)
}

// ReplayEvents runs parked events again: one (eventID) or all of consumer's (or all).
func (o *Operations) ReplayEvents(ctx context.Context, consumer, eventID string) ([]EventReplay, error) {
	return o.ledger.Replay(ctx, o.consumers, consumer, eventID)
}

// RebuildAnalytics empties the analytics read model and replays the outbox into it.
// Unless force, it refuses when retention pruned events the read model still counts.
func (o *Operations) RebuildAnalytics(ctx context.Context, force bool) (Rebuilt, error) {
	var consumer *events.Consumer
	for _, cs := range o.consumers {
		if cs.Name == consumers.AnalyticsProjectionName {
			consumer = &cs
		}
	}
	if consumer == nil {
		return Rebuilt{}, fmt.Errorf("no consumer named %s is registered", consumers.AnalyticsProjectionName)
	}
	if err := o.checkOutboxCovers(ctx); err != nil && !force {
		return Rebuilt{}, err
	}
	return o.ledger.Rebuild(ctx, o.positions, *consumer, o.projection.Reset)
}

// checkOutboxCovers refuses a rebuild that would silently lose history: retention
// prunes consumed events, and a fact older than the oldest event left cannot be replayed.
func (o *Operations) checkOutboxCovers(ctx context.Context) error {
	// Sales, refunds, enrollments, lesson completions and new students: each module
	// tells the oldest of its facts through its published query.
	var oldest platform.Earliest
	for _, h := range o.earliest {
		e, err := h.Handle(ctx, struct{}{})
		if err != nil {
			return err
		}
		if e.OK {
			oldest.Consider(e.At)
		}
	}
	if !oldest.OK {
		return nil
	}
	fact := oldest.At
	first, anyEvent, err := o.positions.FirstEventAt(ctx)
	if err != nil {
		return err
	}
	if !anyEvent || fact.Before(first.Add(-rebuildSlack)) {
		return fmt.Errorf("the outbox no longer holds the events of %s (oldest event left: %v): retention pruned them, "+
			"so a rebuild would undercount; keep the current read model, or pass --force to rebuild from what is left",
			fact.Format(time.RFC3339), first.Format(time.RFC3339))
	}
	return nil
}
