package webhooks

import "github.com/creatorapi/creatorapi/domain/kernel"

// Ceilings per workspace: endpoints multiply the deliveries each event costs, and test
// events are sent on request, so neither may grow without bound.
const (
	// MaxEndpointsPerWorkspace counts every endpoint, disabled ones too (they can be
	// enabled again without passing this check).
	MaxEndpointsPerWorkspace = 25
	// TestEventsPerMinute is how many test events a workspace may send per clock minute.
	TestEventsPerMinute = 10
)

// RoomForAnother refuses a new endpoint when the workspace has the most it may have.
func RoomForAnother(existing []*Subscription) error {
	if len(existing) >= MaxEndpointsPerWorkspace {
		return kernel.Invalid("webhooks", "this workspace has %d webhook endpoints, the most it may have: point one you no longer use at the new URL instead", len(existing))
	}
	return nil
}
