// Package webhooks holds webhook subscriptions (endpoints) and their deliveries: the
// response policy, the retry schedule and the auto-disable rule.
package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes subscription ids (whk_...).
const IDPrefix = "whk"

// RotationOverlap is how long the previous secret still signs after a rotation.
const RotationOverlap = 24 * time.Hour

// Status of an endpoint.
type Status string

// Endpoint statuses.
const (
	Enabled  Status = "enabled"
	Disabled Status = "disabled"
)

// DisabledReason tells who disabled an endpoint.
type DisabledReason string

// Reasons an endpoint is disabled.
const (
	ByOperator DisabledReason = "operator"
	ByFailures DisabledReason = "failing"
)

// Subscription is an endpoint of a workspace: where to POST which event types.
type Subscription struct {
	ID          string
	WorkspaceID string
	URL         string
	Events      []string
	Status      Status
	Reason      DisabledReason
	Secret      Secret
	// PayloadVersion is the API major the endpoint was created under: its deliveries are
	// rendered at that version, so a later major's payload never reaches it unasked.
	PayloadVersion int
	// SecretUnreadable: the stored secret could not be opened (a master key other than the
	// one that sealed it, a damaged row). The endpoint cannot sign, so its deliveries fail
	// alone (ReasonSecretUnreadable) until a rotation gives it a new secret.
	SecretUnreadable bool
	// Previous signs alongside Secret until PreviousExpiresAt (a rotation's overlap).
	Previous          *Secret
	PreviousExpiresAt *time.Time
	// Receiver is what the receiver asks for beyond the signature (static headers, an
	// OAuth2 grant), sealed at rest like the secret. ReceiverUnreadable: its sealed bytes
	// cannot be opened; they are kept as they are until the receiver is set again.
	Receiver           Receiver
	ReceiverUnreadable bool
	// FailingSince is the time of the first failed attempt after the last success
	// (or after creation or re-enabling); nil while the endpoint is healthy.
	FailingSince *time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DisabledAt   *time.Time

	// Pacing is the owner's rate limit and order (pacing.go); PausedUntil a receiver's
	// 429 Retry-After: nothing of the endpoint is sent before it.
	Pacing      Pacing
	PausedUntil *time.Time
}

// NewSubscription validates url and events (already checked against the public types).
func NewSubscription(id, workspaceID, rawURL string, eventTypes []string, secret Secret, allowHTTP bool, now time.Time) (*Subscription, error) {
	u, err := ValidateURL(rawURL, allowHTTP)
	if err != nil {
		return nil, err
	}
	if len(eventTypes) == 0 {
		return nil, kernel.Invalid("events", "events: choose at least one event type")
	}
	return &Subscription{
		ID: id, WorkspaceID: workspaceID, URL: u, Events: eventTypes, Status: Enabled,
		Secret: secret, CreatedAt: now, UpdatedAt: now, PayloadVersion: 1, // the use case sets the current one
	}, nil
}

// Wants tells whether the endpoint receives events of type t.
func (s *Subscription) Wants(t string) bool {
	for _, e := range s.Events {
		if e == t {
			return true
		}
	}
	return false
}

// Signing returns the secrets that sign a request sent at now: the current one first,
// then the previous one during the rotation overlap.
func (s *Subscription) Signing(now time.Time) []Secret {
	out := []Secret{s.Secret}
	if s.Previous != nil && s.PreviousExpiresAt != nil && now.Before(*s.PreviousExpiresAt) {
		out = append(out, *s.Previous)
	}
	return out
}

// Rotate makes next the signing secret; the current one keeps signing for RotationOverlap.
// An unreadable secret is simply replaced: nothing can sign with it.
func (s *Subscription) Rotate(next Secret, now time.Time) {
	if s.SecretUnreadable {
		s.Secret, s.Previous, s.PreviousExpiresAt, s.SecretUnreadable, s.UpdatedAt = next, nil, nil, false, now
		return
	}
	prev := s.Secret
	expires := now.Add(RotationOverlap)
	s.Previous, s.PreviousExpiresAt = &prev, &expires
	s.Secret = next
	s.UpdatedAt = now
}

// Disable stops deliveries to the endpoint; pending ones wait until it is enabled again.
func (s *Subscription) Disable(reason DisabledReason, now time.Time) {
	if s.Status == Disabled {
		return
	}
	s.Status, s.Reason, s.DisabledAt, s.UpdatedAt = Disabled, reason, &now, now
}

// Enable resumes deliveries and forgets the failing streak, so that a re-enabled endpoint
// gets a full DisableAfter period again.
func (s *Subscription) Enable(now time.Time) {
	if s.Status == Enabled {
		return
	}
	s.Status, s.Reason, s.DisabledAt, s.FailingSince, s.UpdatedAt = Enabled, "", nil, nil, now
}

// RecordFailure notes a failed attempt at now. It disables the endpoint, and reports true,
// when every attempt has failed since a first failure at least disableAfter ago.
func (s *Subscription) RecordFailure(now time.Time, disableAfter time.Duration) bool {
	if s.FailingSince == nil {
		s.FailingSince = &now
		s.UpdatedAt = now
	}
	if s.Status == Enabled && now.Sub(*s.FailingSince) >= disableAfter {
		s.Disable(ByFailures, now)
		return true
	}
	return false
}

// Repository stores subscriptions. Secrets are sealed at rest by the implementation.
type Repository interface {
	Add(ctx context.Context, s *Subscription) error
	// Get returns NotFound unless the subscription exists in workspaceID.
	Get(ctx context.Context, workspaceID, id string) (*Subscription, error)
	// GetForUpdate is Get with the row locked until the transaction ends.
	GetForUpdate(ctx context.Context, workspaceID, id string) (*Subscription, error)
	List(ctx context.Context, workspaceID string) ([]*Subscription, error)
	// Enabled lists the workspace's enabled endpoints that want eventType.
	Enabled(ctx context.Context, workspaceID, eventType string) ([]*Subscription, error)
	Save(ctx context.Context, s *Subscription) error
	// MarkHealthy ends the failing streaks of the workspace's endpoints ids after a
	// successful attempt.
	MarkHealthy(ctx context.Context, workspaceID string, ids []string) error
}
