package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// DeliveryIDPrefix prefixes delivery ids (evd_...).
const DeliveryIDPrefix = "evd"

// DeliveryStatus is where a delivery stands.
type DeliveryStatus string

// Delivery statuses.
const (
	Pending           DeliveryStatus = "pending"
	DeliverySucceeded DeliveryStatus = "succeeded"
	DeliveryFailed    DeliveryStatus = "failed"
)

// Delivery is one event on its way to one endpoint. Its id and payload bytes stay the
// same across attempts and resends.
type Delivery struct {
	ID             string
	WorkspaceID    string
	SubscriptionID string
	EventID        string
	EventType      string
	Payload        []byte
	Status         DeliveryStatus
	Attempts       int // every attempt ever made
	// CycleAttempts and CycleFailedAt restart on a resend: the schedule counts from the
	// first failure of the current cycle.
	CycleAttempts int
	CycleFailedAt *time.Time
	NextAttemptAt *time.Time // set exactly while Pending (the dispatcher's claim relies on it)
	LastAttemptAt *time.Time
	LastStatus    int
	LastError     string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Attempt is one line of a delivery's attempt log.
type Attempt struct {
	DeliveryID     string
	WorkspaceID    string
	SubscriptionID string
	Number         int
	At             time.Time
	StatusCode     int
	Latency        time.Duration
	Response       string
	Error          string
	Outcome        Outcome
}

// NewDelivery queues payload for the endpoint, due now.
func NewDelivery(id string, sub *Subscription, eventID, eventType string, payload []byte, now time.Time) *Delivery {
	return &Delivery{
		ID: id, WorkspaceID: sub.WorkspaceID, SubscriptionID: sub.ID, EventID: eventID, EventType: eventType,
		Payload: payload, Status: Pending, NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now,
	}
}

// RecordAttempt applies r observed at now (the attempt's start) and returns the log line.
func (d *Delivery) RecordAttempt(r Result, now time.Time, p Policy) Attempt {
	outcome := Classify(r)
	d.Attempts++
	d.CycleAttempts++
	d.LastAttemptAt, d.LastStatus, d.LastError, d.UpdatedAt = &now, r.StatusCode, r.Error, now
	switch outcome {
	case Succeeded:
		d.Status, d.NextAttemptAt = DeliverySucceeded, nil
	default:
		if d.CycleFailedAt == nil {
			d.CycleFailedAt = &now
		}
		next, ok := p.next(d.CycleAttempts, *d.CycleFailedAt, now, r.RetryAfter)
		if outcome == Retry && ok {
			d.Status, d.NextAttemptAt = Pending, &next
		} else {
			outcome = Failed
			d.Status, d.NextAttemptAt = DeliveryFailed, nil
		}
	}
	return Attempt{
		DeliveryID: d.ID, WorkspaceID: d.WorkspaceID, SubscriptionID: d.SubscriptionID, Number: d.Attempts,
		At: now, StatusCode: r.StatusCode, Latency: r.Latency, Response: r.Response, Error: r.Error, Outcome: outcome,
	}
}

// Resend starts a new cycle due now: a full retry schedule, the same id and bytes.
func (d *Delivery) Resend(now time.Time) {
	d.Status, d.NextAttemptAt, d.CycleAttempts, d.CycleFailedAt, d.UpdatedAt = Pending, &now, 0, nil, now
}

// DeliveryFilter narrows a delivery list.
type DeliveryFilter struct {
	Status DeliveryStatus // empty: any
}

// Deliveries stores deliveries and their attempt log.
type Deliveries interface {
	// AddIfAbsent inserts d unless the endpoint already has a delivery of the event.
	AddIfAbsent(ctx context.Context, d *Delivery) (bool, error)
	// AddLeased is AddIfAbsent with d leased under token until until (the fan-out hands it
	// to its own dispatcher).
	AddLeased(ctx context.Context, d *Delivery, token string, until time.Time) (bool, error)
	// Get returns NotFound unless the delivery exists in workspaceID.
	Get(ctx context.Context, workspaceID, id string) (*Delivery, error)
	Save(ctx context.Context, d *Delivery) error
	// AddAttempts appends lines to the attempt log.
	AddAttempts(ctx context.Context, as []Attempt) error
	// Attempts returns the attempt logs of the given deliveries, oldest first.
	Attempts(ctx context.Context, workspaceID string, deliveryIDs []string) (map[string][]Attempt, error)
	// ResendFailed starts a new cycle for the endpoint's failed deliveries created in [since, until).
	ResendFailed(ctx context.Context, workspaceID, subscriptionID string, since, until, now time.Time) (int, error)
}

// ErrNotResendable reports a resend of a delivery whose endpoint is disabled.
func ErrNotResendable(id string) error {
	return kernel.Invalid("id", "delivery %s belongs to a disabled webhook: enable it first", id)
}

// Backfilled tells whether d was written by a backfill: due at its event's time, before
// its own creation, so that claims take it in event order ahead of live deliveries.
func (d *Delivery) Backfilled() bool {
	return d.NextAttemptAt != nil && d.NextAttemptAt.Before(d.CreatedAt)
}
