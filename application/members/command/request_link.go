package command

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/members"
)

// RequestLink is someone typing an address on the sign-in page.
type RequestLink struct {
	Email   string
	Address string // the client address, for the limits
}

// TooManyRequests is the answer once a client asked too often.
type TooManyRequests struct{ RetryAfter time.Duration }

func (e *TooManyRequests) Error() string {
	return "too many sign-in requests; try again later"
}

// RequestLink queues the request for the mailer (SendLinks) and answers the same (nil)
// whether or not the address belongs to someone: it records, counts and queues, the
// same statements either way, so that neither the answer nor its time tells who has
// an account. Only the client that asked too often is refused: per (address, client)
// and per client, never per address alone, so nobody can lock another person out.
func (d Deps) RequestLink(ctx context.Context, cmd RequestLink) (struct{}, error) {
	email, err := members.NormalizeEmail("email", cmd.Email)
	if err != nil {
		return struct{}{}, err
	}
	now := d.Clock.Now()
	byPair, byClient, err := d.Links.RecordRequest(ctx, email, cmd.Address, now, now.Add(-members.RequestWindow))
	if err != nil {
		return struct{}{}, err
	}
	if byPair > members.RequestsPerPair || byClient > members.RequestsPerClient {
		return struct{}{}, &TooManyRequests{RetryAfter: members.RequestWindow}
	}
	return struct{}{}, d.Requests.Enqueue(ctx, members.LinkRequest{ID: d.IDs.New("sir"), Email: email, Address: cmd.Address, RequestedAt: now})
}
