package members

import (
	"context"
	"time"
)

// LinkRequest is a request of the sign-in page waiting for the mailer. The page only
// queues it, whether or not the address has an account, so that its response time tells
// nothing; the mailer looks the person up and sends the link.
type LinkRequest struct {
	ID          string
	Email       string
	Address     string // the client that asked, for the audit entry
	RequestedAt time.Time
}

// LinkRequests is the outbox of sign-in page requests.
type LinkRequests interface {
	// Enqueue stores r in the transaction of ctx.
	Enqueue(ctx context.Context, r LinkRequest) error
	// ClaimDue leases up to limit requests not yet done until leaseUntil; a request
	// another instance holds is skipped.
	ClaimDue(ctx context.Context, now, leaseUntil time.Time, limit int) ([]LinkRequest, error)
	// Done marks the request handled.
	Done(ctx context.Context, id string, at time.Time) error
}
