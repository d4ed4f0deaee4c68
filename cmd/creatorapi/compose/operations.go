package compose

import (
	"context"
	"fmt"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/analytics"
	analyticscmd "github.com/creatorapi/creatorapi/application/analytics/command"
	analyticsquery "github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/application/events"
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

// Operations parks, replays and rebuilds what the event consumers processed.
type Operations struct {
	ledger     *router.Ledger
	consumers  []events.Consumer // every one, inline included (events parked before one became inline)
	positions  *router.Positions
	projection analyticscmd.Resetter
	analytics  analytics.Application
}

// Maintenance provides Operations, the master-key rotation and the demo seeder's marker.
func Maintenance() fx.Option {
	return fx.Provide(
		func(l *router.Ledger, cs consumersParams, p *router.Positions, proj analyticscmd.Resetter, a analytics.Application) *Operations {
			return &Operations{ledger: l, consumers: cs.Consumers, positions: p, projection: proj, analytics: a}
		},
		func(s *sqlstore.Settings) demo.Marker { return s },
		newKeyRotation,
		newBackupSource,
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
// Unless force, it refuses when retention pruned events the read model still counts
// (the analytics module's CheckRebuild).
func (o *Operations) RebuildAnalytics(ctx context.Context, force bool) (Rebuilt, error) {
	for _, c := range o.consumers {
		if c.Name != consumers.AnalyticsProjectionName {
			continue
		}
		if _, err := o.analytics.Queries.CheckRebuild.Handle(ctx, analyticsquery.CheckRebuild{}); err != nil && !force {
			return Rebuilt{}, err
		}
		return o.ledger.Rebuild(ctx, o.positions, c, o.projection.Reset)
	}
	return Rebuilt{}, fmt.Errorf("no consumer named %s is registered", consumers.AnalyticsProjectionName)
}
