package webhooks

import (
	"context"
	"time"
)

// Polling: after a wake-up the dispatcher looks again at growing intervals, because the
// fan-out wakes it before its transaction commits; when idle it polls every IdlePoll.
var burst = []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond,
	16 * time.Millisecond, 32 * time.Millisecond, 64 * time.Millisecond}

// IdlePoll is the longest wait between two claims. An idle poll is one indexed read on the
// reader pool (no write transaction), so 10 per second cost little.
const IdlePoll = 100 * time.Millisecond

// Run claims and sends until stop is closed, then waits for attempts in flight to be
// sent and recorded; claimed deliveries not yet sent are released, not sent.
func (d *Dispatcher) Run(stop <-chan struct{}) {
	defer d.Wait()
	defer d.stopping.Store(true)
	step := len(burst)
	for {
		wait := IdlePoll
		if step < len(burst) {
			wait = burst[step]
		}
		timer := time.NewTimer(wait)
		select {
		case <-stop:
			timer.Stop()
			return
		case <-d.signal.C():
			timer.Stop()
			step = 0
		case <-timer.C:
			if step < len(burst) {
				step++
			}
		}
		for {
			n, full, err := d.tick(context.Background())
			if err != nil {
				d.logger.Error("claim webhook deliveries", "error", err)
				break
			}
			if n > 0 {
				step = 0 // busy: keep looking quickly
			}
			if !full {
				break // nothing more within the room: wait for room freed, new deliveries or the poll
			}
		}
	}
}
