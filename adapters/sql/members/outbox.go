package members

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/domain/members"
)

// Outbox is the Store seen as members.LinkRequests.
type Outbox struct{ *Store }

// Enqueue stores r in the transaction of ctx.
func (s Outbox) Enqueue(ctx context.Context, r members.LinkRequest) error {
	return s.DB.Exec(ctx, "queue sign-in request", s.Q.Enqueue, r.ID, r.Email, r.Address, r.RequestedAt)
}

// ClaimDue leases up to limit requests until leaseUntil.
func (s Outbox) ClaimDue(ctx context.Context, now, leaseUntil time.Time, limit int) ([]members.LinkRequest, error) {
	var due []members.LinkRequest
	if err := s.DB.Read(ctx).SelectContext(ctx, &due, s.Q.Due, now, limit); err != nil {
		return nil, fmt.Errorf("select due sign-in requests: %w", err)
	}
	out := due[:0]
	for _, r := range due {
		took, err := s.DB.Changes(ctx, "lease sign-in request", s.Q.Lease, leaseUntil, r.ID, now)
		if err != nil {
			return nil, err
		}
		if took {
			r.RequestedAt = r.RequestedAt.UTC()
			out = append(out, r)
		}
	}
	return out, nil
}

// Done marks the request handled.
func (s Outbox) Done(ctx context.Context, id string, at time.Time) error {
	return s.DB.Exec(ctx, "sign-in request done", s.Q.Done, at, id)
}
