package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// IdlePoll is the longest wait between two claims: it finds what neither a handoff nor a
// signal announces (retries coming due, whose schedule counts in minutes; leases of a
// crashed instance, which expire after 30 s; deliveries written by a process without a
// dispatcher). The fan-out hands its deliveries to this process's dispatcher, and resends
// and test events signal after their commit, so nothing new waits for this poll: once a
// second keeps an idle instance's claims at one statement per second (it was ten).
const IdlePoll = time.Second

// Run claims and sends until stop is closed, then waits for attempts in flight to be
// sent and recorded; claimed deliveries not yet sent are released, not sent.
func (d *Dispatcher) Run(stop <-chan struct{}) {
	d.stopping.Store(false) // a dispatcher run again after a stop sends again
	d.signal.leasing.Store(true)
	defer d.Wait()
	defer d.releaseHanded()
	defer d.stopping.Store(true)
	for {
		timer := time.NewTimer(IdlePoll)
		claim := true
		select {
		case <-stop:
			timer.Stop()
			return
		case <-d.signal.C():
			timer.Stop()
		case <-d.signal.room:
			timer.Stop()
			claim = false // handed leases, or room freed: a claim only if more may be due
		case <-timer.C:
		}
		if closed(stop) {
			// select picks at random among ready cases: a signal that came with the stop
			// must not start another round of sends.
			return
		}
		for {
			_, full, err := d.tick(context.Background(), claim)
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

// closed tells whether stop is closed, without waiting.
func closed(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}
