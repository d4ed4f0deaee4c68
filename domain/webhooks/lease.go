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
	// Trace is the W3C traceparent of the request whose event caused the delivery ("":
	// none), opaque here: the attempt continues that trace and sends it on.
	Trace string
	// NotBefore is the send slot of a rate-limited endpoint's delivery (zero: at once).
	// An empty Token marks a delivery the fan-out wrote unleased (a gated endpoint's).
	NotBefore time.Time
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

// Fan is one event to write deliveries of: one per enabled endpoint of its workspace
// that wants its type (NewDelivery's state at At).
type Fan struct {
	WorkspaceID, EventID, EventType string
	Payload                         []byte // the envelope's bytes, signed and sent on every attempt
	PayloadVersion                  int    // only endpoints created under this version get these bytes
	At                              time.Time
	Token                           string // "": written unleased, for a claim
	Until                           time.Time
	// Exclude is an endpoint that never gets the event: the one an operational event
	// describes ("" for any other event).
	Exclude string
}

// Dispatch hands due deliveries to dispatchers without double sending.
type Dispatch interface {
	// FanOut writes one delivery of the event, named by newID, for each enabled endpoint
	// of its workspace that wants its type and has none of it yet (a replayed event writes
	// nothing), leased under f.Token when set, in the transaction of ctx. It may hold the
	// writes until just before that transaction commits, to write a batch of events'
	// deliveries at once (an error then fails the commit). written gets those written, each
	// with what sending needs of its endpoint, once they are, with a context of the writing
	// transaction (so that what it registers to run after the commit does so). Outside a
	// transaction it writes at once and tells written before it returns.
	FanOut(ctx context.Context, f Fan, newID func() string, written func(ctx context.Context, leases []Lease)) error
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
	// FinishSucceeded is Finish for successful attempts (as[i] is fs[i]'s line), which also
	// logs the saved ones' attempts and ends their endpoints' failing streaks, as one
	// atomic write: it may run outside a transaction (one statement on PostgreSQL).
	FinishSucceeded(ctx context.Context, fs []Finished, as []Attempt) (saved []bool, err error)
	// Release gives an unused lease back.
	Release(ctx context.Context, workspaceID, id, token string) error
}
