package main

import (
	"context"
	"flag"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

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
	var ops *compose.Operations
	return c.withModules(func(ctx context.Context) error {
		res, err := ops.RebuildAnalytics(ctx, *force)
		if err != nil {
			return err
		}
		return c.printJSON(res)
	}, &ops)
}
