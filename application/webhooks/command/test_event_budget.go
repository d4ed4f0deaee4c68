package command

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// TestEventBudget counts a workspace's test events per clock minute
// (webhooks.TestEventsPerMinute), across instances.
type TestEventBudget interface {
	// Take counts one test event of workspaceID, or refuses it and says in how many
	// seconds the minute resets.
	Take(ctx context.Context, workspaceID string) (allowed bool, retryAfterSeconds int, err error)
}

// takeTestEvent refuses a test event over the workspace's ceiling; no budget (nil)
// means no ceiling.
func (d Deps) takeTestEvent(ctx context.Context, workspaceID string) error {
	if d.TestEvents == nil {
		return nil
	}
	ok, wait, err := d.TestEvents.Take(ctx, workspaceID)
	if err != nil {
		return err
	}
	if !ok {
		return kernel.Invalid("type", "this workspace has sent %d test events this minute, the most it may: try again in %d seconds",
			webhooks.TestEventsPerMinute, wait)
	}
	return nil
}
