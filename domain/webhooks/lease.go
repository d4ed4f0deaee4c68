package webhooks

import (
	"context"
	"time"
)

// Lease is a delivery claimed by one dispatcher, with its endpoint (what sending needs:
// id, workspace, URL, secrets), until Until. The
// holder must start sending early enough to finish before Until; then no other instance
// can claim the delivery meanwhile.
type Lease struct {
	Delivery *Delivery
	Endpoint *Subscription
	Token    string
	Until    time.Time
}

// Room is how many more deliveries each endpoint may take: PerEndpoint, less the
// requests in flight to it.
type Room struct {
	PerEndpoint int
	InFlight    map[string]int // per subscription id
}

// Of returns the room of one endpoint.
func (r Room) Of(subscriptionID string) int { return r.PerEndpoint - r.InFlight[subscriptionID] }

// Finished is a leased delivery's state after its attempt, computed from the claimed copy.
type Finished struct {
	Delivery *Delivery
	Token    string
	Cycle    int // CycleAttempts when claimed: only a resend changes it under a lease
}

// Dispatch hands due deliveries to dispatchers without double sending.
type Dispatch interface {
	// ClaimDue leases up to limit deliveries of enabled endpoints due at now, at most
	// room.Of(subscriptionID) per endpoint.
	ClaimDue(ctx context.Context, now, until time.Time, token string, limit int, room Room) ([]Lease, error)
	// GetLeased returns the delivery locked for update while token holds it, else NotFound.
	GetLeased(ctx context.Context, workspaceID, id, token string) (*Delivery, error)
	// Complete saves d and ends token's lease.
	Complete(ctx context.Context, d *Delivery, token string) error
	// Finish saves each delivery whose token still holds its lease and whose cycle is still
	// the claimed one (no resend meanwhile), ending the lease; saved[i] tells which.
	Finish(ctx context.Context, fs []Finished) (saved []bool, err error)
	// Release gives an unused lease back.
	Release(ctx context.Context, workspaceID, id, token string) error
}
