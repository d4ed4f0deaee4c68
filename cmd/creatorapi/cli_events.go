package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// events lists and replays the events consumers parked after failing on them.
func (c *CLI) events(args []string) error {
	if len(args) == 0 {
		return usageError("events: want failed or replay")
	}
	fs := flag.NewFlagSet("events "+args[0], flag.ContinueOnError)
	consumer := fs.String("consumer", "", "only this consumer")
	pos, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	var ops *compose.Operations
	switch args[0] {
	case "failed":
		if len(pos) != 0 {
			return usageError("events failed takes no arguments")
		}
		return c.withModules(func(ctx context.Context) error {
			fs, err := ops.FailedEvents(ctx, *consumer)
			if err != nil {
				return err
			}
			return c.printJSON(fs)
		}, &ops)
	case "replay":
		if len(pos) > 1 {
			return usageError("events replay takes at most one EVENT_ID")
		}
		eventID := ""
		if len(pos) == 1 {
			eventID = pos[0]
		}
		return c.withModules(func(ctx context.Context) error {
			res, err := ops.ReplayEvents(ctx, *consumer, eventID)
			if err != nil {
				return err
			}
			if err := c.printJSON(res); err != nil {
				return err
			}
			for _, r := range res {
				if !r.Replayed {
					return fmt.Errorf("%d of %d events failed again and stay parked", countFailed(res), len(res))
				}
			}
			return nil
		}, &ops)
	default:
		return usageError(fmt.Sprintf("events: unknown command %q (want failed or replay)", args[0]))
	}
}

func countFailed(res []compose.EventReplay) int {
	n := 0
	for _, r := range res {
		if !r.Replayed {
			n++
		}
	}
	return n
}
