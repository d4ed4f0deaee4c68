package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/adapters/watermill"
	"github.com/creatorapi/creatorapi/ports/consumers"
)

// rebuildSlack is how much older than the oldest outbox event a source fact may be
// without proving a gap: a use case reads the clock before the outbox stamps its event.
const rebuildSlack = time.Minute

// projections rebuilds the analytics read model from the events in the outbox.
func (c *CLI) projections(args []string) error {
	if len(args) == 0 || args[0] != "rebuild" {
		return usageError("projections: want rebuild")
	}
	fs := flag.NewFlagSet("projections rebuild", flag.ContinueOnError)
	force := fs.Bool("force", false, "rebuild even though retention pruned events the read model counts")
	pos, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("projections rebuild takes no arguments")
	}
	var (
		ledger    *watermill.Ledger
		router    *watermill.Router
		positions *watermill.Positions
		proj      *sqlstore.AnalyticsProjection
	)
	return c.withModules(func(ctx context.Context) error {
		var consumer *watermill.Consumer
		for _, cs := range router.Consumers() {
			if cs.Name == consumers.AnalyticsProjectionName {
				consumer = &cs
			}
		}
		if consumer == nil {
			return fmt.Errorf("no consumer named %s is registered", consumers.AnalyticsProjectionName)
		}
		if err := checkOutboxCovers(ctx, positions, proj); err != nil && !*force {
			return err
		}
		res, err := ledger.Rebuild(ctx, positions, *consumer, proj.Reset)
		if err != nil {
			return err
		}
		return c.printJSON(res)
	}, &ledger, &router, &positions, &proj)
}

// checkOutboxCovers refuses a rebuild that would silently lose history: retention
// prunes consumed events, and a fact older than the oldest event left cannot be replayed.
func checkOutboxCovers(ctx context.Context, positions *watermill.Positions, proj *sqlstore.AnalyticsProjection) error {
	fact, anyFact, err := proj.OldestFact(ctx)
	if err != nil || !anyFact {
		return err
	}
	first, anyEvent, err := positions.FirstEventAt(ctx)
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
