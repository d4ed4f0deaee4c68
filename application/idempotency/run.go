package idempotency

import (
	"bytes"
	"context"
	"fmt"
)

// Run claims the key first, in the transaction the request's change will join: a
// concurrent run of the same key waits for this one to commit or roll back, then
// replays its answer or runs itself. A claimed key stores the answer of a success in the
// same transaction as the change and its events, so all of it commits or none does; any
// other answer releases the key, and an error rolls everything back.
func (d Deps) Run(ctx context.Context, r Request) (Outcome, error) {
	now := d.Clock.Now()
	claimed, err := d.Store.Claim(ctx, r.Key, r.Fingerprint, now, now.Add(-Window))
	if err != nil {
		return Outcome{}, err
	}
	if !claimed {
		rec, err := d.Store.Get(ctx, r.Key)
		if err != nil {
			return Outcome{}, err
		}
		if !bytes.Equal(rec.Fingerprint, r.Fingerprint) {
			return Outcome{}, ErrReused
		}
		if rec.Status == 0 {
			return Outcome{}, fmt.Errorf("replay: %w", errNoAnswer)
		}
		return Outcome{Answer: rec.Answer, Replayed: true}, nil
	}
	a, err := r.Run(ctx)
	if err != nil {
		return Outcome{}, err
	}
	if !a.Stored() {
		return Outcome{Answer: a}, d.Store.Release(ctx, r.Key)
	}
	return Outcome{Answer: a}, d.Store.Complete(ctx, r.Key, a)
}
