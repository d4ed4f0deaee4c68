package webhooks

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Add stores n, due at once; an id that exists already is an error (the primary key).
func (r Notices) Add(_ context.Context, n webhooks.Notice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, taken := r.notices[n.ID]; taken {
		return fmt.Errorf("insert notice: id %s exists", n.ID)
	}
	n.CreatedAt = n.CreatedAt.UTC()
	r.notices[n.ID] = &notice{n: n, nextAttemptAt: n.CreatedAt}
	return nil
}

// ClaimDue leases up to limit unsent notices due at now until leaseUntil, oldest due
// first; a notice leased by another claimer and not expired is skipped.
func (r Notices) ClaimDue(_ context.Context, now, leaseUntil time.Time, limit int) ([]webhooks.Notice, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var due []*notice
	for _, n := range r.notices {
		if n.sentAt == nil && !n.nextAttemptAt.After(now) && (n.leaseUntil == nil || !n.leaseUntil.After(now)) {
			due = append(due, n)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		if !due[i].nextAttemptAt.Equal(due[j].nextAttemptAt) {
			return due[i].nextAttemptAt.Before(due[j].nextAttemptAt)
		}
		return due[i].n.ID < due[j].n.ID
	})
	var out []webhooks.Notice
	u := leaseUntil.UTC()
	for _, n := range due {
		if len(out) == limit {
			break
		}
		n.leaseUntil = &u
		n.attempts++
		out = append(out, n.n)
	}
	return out, nil
}

// MarkSent records the sending and ends the lease.
func (r Notices) MarkSent(_ context.Context, workspaceID, id string, at time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n, ok := r.notices[id]; ok && n.n.WorkspaceID == workspaceID {
		sent := at.UTC()
		n.sentAt, n.leaseUntil = &sent, nil
	}
	return nil
}

// MarkFailed records the error and when to try again, and ends the lease.
func (r Notices) MarkFailed(_ context.Context, workspaceID, id, errText string, retryAt time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n, ok := r.notices[id]; ok && n.n.WorkspaceID == workspaceID {
		n.lastError, n.nextAttemptAt, n.leaseUntil = errText, retryAt.UTC(), nil
	}
	return nil
}
