package webhooks

import (
	"context"
	"fmt"
	"sort"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Add inserts s; an id that exists already is an error (the primary key).
func (r Subscriptions) Add(_ context.Context, s *webhooks.Subscription) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, taken := r.subs[s.ID]; taken {
		return fmt.Errorf("insert webhook: id %s exists", s.ID)
	}
	sealed, err := r.seal(s)
	if err != nil {
		return fmt.Errorf("insert webhook: %w", err)
	}
	r.keep(s, sealed)
	return nil
}

// Get returns the subscription of the workspace or NotFound.
func (r Subscriptions) Get(_ context.Context, workspaceID, id string) (*webhooks.Subscription, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.subs[id]
	if !ok || s.WorkspaceID != workspaceID {
		return nil, kernel.NotFound("webhook %s not found", id)
	}
	return r.opened(s), nil
}

// GetForUpdate is Get: the twin takes no row locks (racing updates are tested on the
// databases).
func (r Subscriptions) GetForUpdate(ctx context.Context, workspaceID, id string) (*webhooks.Subscription, error) {
	return r.Get(ctx, workspaceID, id)
}

// List returns the workspace's subscriptions, newest first (ties by id, descending).
func (r Subscriptions) List(_ context.Context, workspaceID string) ([]*webhooks.Subscription, error) {
	return r.matching(workspaceID, func(*webhooks.Subscription) bool { return true }), nil
}

// Enabled returns the workspace's enabled subscriptions that want eventType.
func (r Subscriptions) Enabled(_ context.Context, workspaceID, eventType string) ([]*webhooks.Subscription, error) {
	return r.matching(workspaceID, func(s *webhooks.Subscription) bool {
		return s.Status == webhooks.Enabled && s.Wants(eventType)
	}), nil
}

func (r Subscriptions) matching(workspaceID string, keep func(*webhooks.Subscription) bool) []*webhooks.Subscription {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := []*webhooks.Subscription{}
	for _, s := range r.subs {
		if s.WorkspaceID == workspaceID && keep(s) {
			out = append(out, r.opened(s))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

// Save writes the mutable state of s (never its id, workspace or creation time). An
// endpoint whose secret could not be opened keeps its stored secrets, as the SQL twin does.
func (r Subscriptions) Save(_ context.Context, s *webhooks.Subscription) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.subs[s.ID]
	if !ok || old.WorkspaceID != s.WorkspaceID {
		return nil // an UPDATE of no row
	}
	next := cloneSubscription(s)
	next.WorkspaceID, next.CreatedAt = old.WorkspaceID, old.CreatedAt
	sealed := r.sealed[s.ID]
	if s.SecretUnreadable {
		next.PreviousExpiresAt = old.PreviousExpiresAt
	} else {
		var err error
		if sealed, err = r.seal(s); err != nil {
			return fmt.Errorf("update webhook: %w", err)
		}
	}
	r.keep(next, sealed)
	return nil
}

// MarkHealthy ends the failing streaks of the workspace's endpoints ids.
func (r Subscriptions) MarkHealthy(_ context.Context, workspaceID string, ids []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range ids {
		if s, ok := r.subs[id]; ok && s.WorkspaceID == workspaceID {
			s.FailingSince = nil
		}
	}
	return nil
}
