// Package webhooks is the in-memory twin of adapters/sql/webhooks: endpoints, deliveries
// with their leases and attempt log, the notice outbox and retention, on maps behind one
// mutex. It keeps the same rules (ids unique; one delivery per endpoint and event, so of
// racing fan-outs exactly one adds it; NotFound outside the workspace; newest first with
// ties by id and keyset pages; a due delivery leased to one claimer at a time, at most the
// endpoint's room, never one of a disabled endpoint; a result saved once per lease) and
// passes the same contract suites (adapters/contracttest). Signing secrets are kept sealed
// (sealing.go: owner-bound bytes, or the service's box after SealWith) and published to
// the master key through Secrets; it does not take part in transactions.
package webhooks

import (
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Store holds the data; Subscriptions, Deliveries, Log, Dispatch, Notices and Retention
// are its ports.
type Store struct {
	mu         sync.Mutex
	subs       map[string]*webhooks.Subscription // by id; copies, never handed out, secrets in sealed
	sealed     map[string]sealedPair             // by endpoint id
	box        Sealer
	deliveries map[string]*delivery          // by id
	byEvent    map[eventKey]string           // delivery id: one per endpoint and event
	attempts   map[string][]webhooks.Attempt // by delivery id, by number
	notices    map[string]*notice            // by id
}

// delivery is a stored delivery with its lease.
type delivery struct {
	d          *webhooks.Delivery
	leaseUntil *time.Time
	leaseToken string
}

type eventKey struct{ subscriptionID, eventID string }

// notice is a stored notice with its sending state.
type notice struct {
	n                  webhooks.Notice
	nextAttemptAt      time.Time
	sentAt, leaseUntil *time.Time
	attempts           int
	lastError          string
}

// New returns an empty store.
func New() *Store {
	return &Store{
		subs: map[string]*webhooks.Subscription{}, sealed: map[string]sealedPair{}, box: ownerBound{}, deliveries: map[string]*delivery{}, byEvent: map[eventKey]string{},
		attempts: map[string][]webhooks.Attempt{}, notices: map[string]*notice{},
	}
}

// Subscriptions implements webhooks.Repository.
type Subscriptions struct{ *Store }

// Deliveries implements webhooks.Deliveries and query.DeliveryPages.
type Deliveries struct{ *Store }

// Log implements query.DeliveryLog.
type Log struct{ *Store }

// Dispatch implements webhooks.Dispatch.
type Dispatch struct{ *Store }

// Notices implements webhooks.Notices.
type Notices struct{ *Store }

// Retention implements the module's retention port (command.Retention); Secrets (secrets.go)
// the master key's.
type Retention struct{ *Store }

// Subscriptions is the store's endpoint repository.
func (s *Store) Subscriptions() Subscriptions { return Subscriptions{s} }

// Deliveries is the store's delivery repository and pages.
func (s *Store) Deliveries() Deliveries { return Deliveries{s} }

// Log is the store's delivery log reader.
func (s *Store) Log() Log { return Log{s} }

// Dispatch is the store's lease queue.
func (s *Store) Dispatch() Dispatch { return Dispatch{s} }

// Notices is the store's notice outbox.
func (s *Store) Notices() Notices { return Notices{s} }

// Retention is the store's pruning.
func (s *Store) Retention() Retention { return Retention{s} }

// cloneSubscription copies s so that callers never share memory with the store; instants
// read back in UTC, as from the databases.
func cloneSubscription(s *webhooks.Subscription) *webhooks.Subscription {
	out := *s
	out.Events = append([]string(nil), s.Events...)
	if s.Previous != nil {
		prev := *s.Previous
		out.Previous = &prev
	}
	out.PreviousExpiresAt, out.FailingSince, out.DisabledAt = utc(s.PreviousExpiresAt), utc(s.FailingSince), utc(s.DisabledAt)
	out.CreatedAt, out.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
	return &out
}

// cloneDelivery copies d (see cloneSubscription).
func cloneDelivery(d *webhooks.Delivery) *webhooks.Delivery {
	out := *d
	out.Payload = append([]byte(nil), d.Payload...)
	out.CycleFailedAt, out.NextAttemptAt, out.LastAttemptAt = utc(d.CycleFailedAt), utc(d.NextAttemptAt), utc(d.LastAttemptAt)
	out.CreatedAt, out.UpdatedAt = d.CreatedAt.UTC(), d.UpdatedAt.UTC()
	return &out
}

func utc(t *time.Time) *time.Time { return platform.UTCPtr(t) }

// position is a delivery's keyset position.
func position(d *webhooks.Delivery) platform.Position {
	return platform.Position{CreatedAt: d.CreatedAt, ID: d.ID}
}
