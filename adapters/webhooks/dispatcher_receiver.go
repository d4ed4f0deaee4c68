package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// AuthenticateWith makes the dispatcher add each endpoint's receiver headers and OAuth2
// token to its attempts.
func (d *Dispatcher) AuthenticateWith(a *ReceiverAuth) { d.receivers = a }

// send makes the attempt of l: the receiver's headers and token, then the request. The
// token fetch and the request share the attempt's timeout, so an attempt never outlasts
// the lease's margin.
func (d *Dispatcher) send(ctx context.Context, l webhooks.Lease, at time.Time) webhooks.Result {
	m := d.message(l, at)
	if d.receivers == nil {
		return d.sender.Send(ctx, m, at)
	}
	ctx, cancel := context.WithTimeout(ctx, d.sender.timeout)
	defer cancel()
	start := time.Now()
	if res, ok := d.receivers.apply(ctx, l.Endpoint, &m); !ok {
		res.Latency = time.Since(start)
		return res
	}
	res := d.sender.Send(ctx, m, at)
	d.receivers.sent(l.Endpoint.ID, res)
	return res
}
