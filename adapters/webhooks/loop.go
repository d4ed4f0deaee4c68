package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// IdlePoll is the longest wait between two claims: it finds what no signal announces
// (deliveries another instance fanned out, retries coming due). An idle poll is one
// indexed read on the reader pool (no write transaction), so 10 per second cost little.
// Signals come after the commit that made deliveries claimable (CommitWaker), or when
// room was freed, so a signalled claim finds its rows at once and needs no re-polls.
const IdlePoll = 100 * time.Millisecond

// Run claims and sends until stop is closed, then waits for attempts in flight to be
// sent and recorded; claimed deliveries not yet sent are released, not sent.
func (d *Dispatcher) Run(stop <-chan struct{}) {
	d.signal.leasing.Store(true)
	defer d.Wait()
	defer d.releaseHanded()
	defer d.stopping.Store(true)
	for {
		timer := time.NewTimer(IdlePoll)
		select {
		case <-stop:
			timer.Stop()
			return
		case <-d.signal.C():
			timer.Stop()
		case <-timer.C:
		}
		for {
			_, full, err := d.tick(context.Background())
			if err != nil {
				d.logger.Error("claim webhook deliveries", "error", err)
				break
			}
			if !full {
				break // nothing more within the room: wait for room freed, new deliveries or the poll
			}
		}
	}
}

// releaseHanded stops taking leases from the fan-out and gives back those not started, so
// that another instance claims them at once rather than when the lease expires.
func (d *Dispatcher) releaseHanded() {
	d.signal.leasing.Store(false)
	for _, l := range d.signal.takeHanded(func(webhooks.Lease) bool { return true }) {
		if err := d.app.Commands.Release.Handle(context.Background(), l); err != nil {
			d.logger.Warn("release webhook delivery", "delivery", l.Delivery.ID, "error", err)
		}
	}
}
