package webhooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/creatorapi/creatorapi/application/platform"
	app "github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Limits bound the dispatcher's concurrency.
type Limits struct {
	Global      int // requests in flight at once, all endpoints together
	PerEndpoint int // requests in flight at once to one endpoint
}

// DefaultLimits suit one instance on a small machine.
var DefaultLimits = Limits{Global: 64, PerEndpoint: 16}

// sendMargin is kept between an attempt's worst-case end and its lease's end.
const sendMargin = 5 * time.Second

// Dispatcher claims due deliveries and sends them. A claim never takes more than an
// endpoint's free room, so every claimed delivery is sent at once: no delivery waits for
// a slot while its lease runs out.
type Dispatcher struct {
	tracer trace.Tracer // nil: attempts carry the trace context, record no span
	app    app.Application
	sender *Sender
	clock  platform.Clock
	logger *slog.Logger
	limits Limits
	signal *Signal
	// keyCheck tells whether this instance's master key is still the database's; nil: not
	// checked. See VerifyKeyWith.
	keyCheck func(context.Context) error
	// pacer hears how late first attempts go out; nil: nobody listens. See ReportLagTo.
	pacer *platform.Pacer
	// receivers adds receivers' headers and tokens; nil: none. See AuthenticateWith.
	receivers *ReceiverAuth

	stopping atomic.Bool // set when Run stops: attempts not yet sent give their lease back
	// mayBeDue says that the last claim found deliveries (or could not look): more may be
	// due, so freed room is claimed for, not only given to handed leases.
	mayBeDue atomic.Bool

	mu        sync.Mutex
	idle      *sync.Cond
	inFlight  map[string]int // requests, per endpoint
	total     int            // requests
	recording int            // attempts sent whose results are not recorded yet

	// Results waiting to be recorded, and how many attempt goroutines are recording them.
	rmu      sync.Mutex
	queue    []*pendingResult
	flushers int
}

// recordBatch bounds the attempts recorded in one transaction; recordFlushers bounds the
// transactions recording at once. A request's slot is freed once its response is read,
// before its result is recorded, so batches grow with the load (a batch costs about the
// same round trips whatever its size); maxRecording bounds the results waiting, so that
// claims pause when recording falls behind.
//
// recordLinger is how long a recorder lets results gather before it takes a batch that is
// not full. A result is recorded after its receiver has it, so the wait adds nothing to a
// webhook's latency. One recorder lingers at a time; another starts only when recordSpill
// results wait (load): with every result starting its own recorder, each lingered alone and
// at 50 events/s every attempt took a statement and a commit of its own (747 for 750).
// A crash meanwhile loses only records of attempts whose deliveries are still leased, not
// finished: they are sent again when the lease expires (at least once).
const (
	recordBatch    = 128
	recordFlushers = 4
	recordSpill    = recordBatch / 4
	maxRecording   = recordBatch * recordFlushers
	recordLinger   = 50 * time.Millisecond
)

type pendingResult struct {
	cmd  command.RecordAttempt
	done chan command.Recorded
}

// holdsALine says that the result's endpoint is ordered: its next delivery waits for this
// record, so the recorder does not linger (lingering capped an ordered endpoint at one
// delivery per recordLinger, about 20 a second).
func (p *pendingResult) holdsALine() bool { return p.cmd.Lease.Endpoint.Pacing.Ordered }

// NewDispatcher builds a dispatcher.
func NewDispatcher(a app.Application, sender *Sender, clock platform.Clock, logger *slog.Logger, limits Limits, signal *Signal) *Dispatcher {
	d := &Dispatcher{app: a, sender: sender, clock: clock, logger: logger, limits: limits, signal: signal, inFlight: map[string]int{}}
	d.idle = sync.NewCond(&d.mu)
	return d
}

// VerifyKeyWith makes the dispatcher check its master key before failing deliveries whose
// endpoint secret cannot be opened: when the key itself is stale (rotated by another
// process while this one runs), the fault is the instance's, not the endpoints'. It then
// gives those deliveries back untouched and reports the error; an instance with the
// current key sends them.
func (d *Dispatcher) VerifyKeyWith(check func(context.Context) error) { d.keyCheck = check }

// ReportLagTo makes the dispatcher tell p how long each delivery waited for its first
// attempt, so that the API can yield while deliveries fall behind.
func (d *Dispatcher) ReportLagTo(p *platform.Pacer) { d.pacer = p }

// Tick claims what the free room allows and starts sending it; it returns how many
// deliveries it started.
func (d *Dispatcher) Tick(ctx context.Context) (int, error) {
	n, _, err := d.tick(ctx, true)
	return n, err
}

// tick is Tick that also says whether it filled the room (then more may be due). Without
// claim it starts handed leases only, unless the last claim left due deliveries behind.
func (d *Dispatcher) tick(ctx context.Context, claim bool) (int, bool, error) {
	claim = claim || d.mayBeDue.Load()
	d.mu.Lock()
	free := min(d.limits.Global-d.total, maxRecording-d.recording)
	room := webhooks.Room{PerEndpoint: d.limits.PerEndpoint, InFlight: maps.Clone(d.inFlight)}
	d.mu.Unlock()
	if free <= 0 {
		if claim {
			d.mayBeDue.Store(true)
		}
		return 0, false, nil
	}
	// Deliveries the fan-out leased to this dispatcher go first, within the room; the
	// claim fills what is left.
	leases := d.signal.takeHanded(func(l webhooks.Lease) bool {
		if free == 0 || room.Of(l.Endpoint.ID) <= 0 {
			return false
		}
		free--
		if room.InFlight == nil {
			room.InFlight = map[string]int{}
		}
		room.InFlight[l.Endpoint.ID]++
		return true
	})
	if claim && free > 0 {
		claimed, err := d.app.Commands.ClaimDue.Handle(ctx, free, room)
		if err != nil {
			leases = append(leases, claimed...) // the open claim's, when the gated one failed
			d.start(leases)
			return len(leases), false, err
		}
		free -= len(claimed)
		// A claim that found nothing leaves nothing behind; one that found some may have
		// left rows that its room (per endpoint, or in all) could not take.
		d.mayBeDue.Store(len(claimed) > 0)
		leases = append(leases, claimed...)
	} else if claim {
		d.mayBeDue.Store(true) // handed leases took the room: look when it frees
	}
	if err := d.checkKey(ctx, leases); err != nil {
		return 0, false, err
	}
	d.start(leases)
	return len(leases), free == 0, nil
}

// start sends the leases, each in its own goroutine, counting them in flight.
func (d *Dispatcher) start(leases []webhooks.Lease) {
	d.mu.Lock()
	for _, l := range leases {
		d.inFlight[l.Endpoint.ID]++
		d.total++
	}
	d.mu.Unlock()
	for _, l := range leases {
		go d.attempt(l)
	}
}

// checkKey releases every lease and fails when some endpoint cannot sign because this
// instance's master key is stale.
func (d *Dispatcher) checkKey(ctx context.Context, leases []webhooks.Lease) error {
	if d.keyCheck == nil || !slices.ContainsFunc(leases, func(l webhooks.Lease) bool { return l.Endpoint.SecretUnreadable }) {
		return nil
	}
	err := d.keyCheck(ctx)
	if err == nil {
		return nil
	}
	for _, l := range leases {
		if rerr := d.app.Commands.Release.Handle(ctx, l); rerr != nil {
			d.logger.Warn("release webhook delivery", "delivery", l.Delivery.ID, "error", rerr)
		}
	}
	return fmt.Errorf("webhook secrets cannot be opened with this instance's master key: %w", err)
}

// attempt sends one leased delivery and records the result. It runs on its own
// context: stopping the service lets it finish (bounded by the timeout).
func (d *Dispatcher) attempt(l webhooks.Lease) {
	ctx := context.Background()
	waitForSlot(d.clock, l)
	at := d.clock.Now()
	if d.stopping.Load() || l.Until.Sub(at) < webhooks.Timeout+sendMargin {
		// Stopping, or too late to finish within the lease: another instance may claim
		// it at once rather than when the lease expires.
		if err := d.app.Commands.Release.Handle(ctx, l); err != nil {
			d.logger.Warn("release webhook delivery", "delivery", l.Delivery.ID, "error", err)
		}
		d.sent(l.Endpoint.ID)
		d.recorded()
		return
	}
	// A gated endpoint's wait is its receiver's pacing (rate limit, order, pause), not the
	// pipeline's lag: counted, it slowed every workspace's API behind one ordered endpoint.
	if l.Delivery.Attempts == 0 && !l.Delivery.Backfilled() && !l.Endpoint.Gated() {
		d.pacer.ObserveSince(platform.StageDispatch, l.Delivery.CreatedAt)
	}
	var res webhooks.Result
	if l.Endpoint.SecretUnreadable {
		// Nothing can sign it: the delivery fails alone, visibly, and is not claimed again.
		res = webhooks.Unsigned()
	} else {
		sendCtx, end := d.traced(ctx, l)
		res = d.send(sendCtx, l, at)
		end(res)
	}
	d.sent(l.Endpoint.ID)
	defer d.recorded()
	r := d.record(ctx, command.RecordAttempt{Lease: l, At: at, Result: res})
	if l.Endpoint.Gated() {
		d.signal.Wake() // an ordered endpoint's next delivery may go now
	}
	outcome, err := r.Outcome, r.Err
	switch {
	case errors.Is(err, command.ErrLeaseLost):
		d.logger.Warn("webhook delivery lease lost; result dropped", "delivery", l.Delivery.ID)
	case err != nil:
		// The lease expires and the delivery is sent again: at least once.
		d.logger.Error("record webhook attempt", "delivery", l.Delivery.ID, "error", err)
	case outcome != webhooks.Succeeded:
		d.logger.Info("webhook attempt failed", "delivery", l.Delivery.ID, "webhook", l.Endpoint.ID,
			"status", res.StatusCode, "error", res.Error, "outcome", outcome)
	}
}

// message is what sending the leased delivery at at takes.
func (d *Dispatcher) message(l webhooks.Lease, at time.Time) Message {
	return Message{
		URL: l.Endpoint.URL, DeliveryID: l.Delivery.ID, EventID: l.Delivery.EventID, EventType: l.Delivery.EventType,
		Body: l.Delivery.Payload, Secrets: l.Endpoint.Signing(at), Timestamp: at.Unix(),
	}
}

// record queues the result; when no one is recording, or recordSpill results wait and
// fewer than recordFlushers are recording, the attempt records the queue itself, batch
// after batch, for everyone (group commit without another goroutine).
func (d *Dispatcher) record(ctx context.Context, cmd command.RecordAttempt) command.Recorded {
	p := &pendingResult{cmd: cmd, done: make(chan command.Recorded, 1)}
	d.rmu.Lock()
	d.queue = append(d.queue, p)
	leader := d.flushers == 0 || (d.flushers < recordFlushers && len(d.queue) >= recordSpill)
	if leader {
		d.flushers++
	}
	d.rmu.Unlock()
	if leader {
		d.flush(ctx)
	}
	return <-p.done
}

func (d *Dispatcher) flush(ctx context.Context) {
	for {
		d.rmu.Lock()
		short := len(d.queue) > 0 && len(d.queue) < recordBatch && !slices.ContainsFunc(d.queue, (*pendingResult).holdsALine)
		d.rmu.Unlock()
		if short {
			time.Sleep(recordLinger)
		}
		d.rmu.Lock()
		batch := d.queue
		if len(batch) > recordBatch {
			batch = batch[:recordBatch]
		}
		d.queue = d.queue[len(batch):]
		if len(batch) == 0 {
			d.flushers--
			d.rmu.Unlock()
			return
		}
		d.rmu.Unlock()
		cmds := make([]command.RecordAttempt, len(batch))
		for i, p := range batch {
			cmds[i] = p.cmd
		}
		for i, r := range d.app.Commands.RecordAttempt.Handle(ctx, cmds...) {
			batch[i].done <- r
		}
	}
}

// sent frees the request's slot; its result now waits to be recorded.
func (d *Dispatcher) sent(endpoint string) {
	d.mu.Lock()
	d.inFlight[endpoint]--
	if d.inFlight[endpoint] <= 0 {
		delete(d.inFlight, endpoint)
	}
	d.total--
	d.recording++
	d.mu.Unlock()
	d.signal.poke() // room freed: for handed leases, and for a claim if more may be due
}

func (d *Dispatcher) recorded() {
	d.mu.Lock()
	d.recording--
	if d.total == 0 && d.recording == 0 {
		d.idle.Broadcast()
	}
	full := d.recording == maxRecording-1
	d.mu.Unlock()
	if full {
		d.signal.poke() // claims paused while recording was behind (mayBeDue is set)
	}
}

// Wait blocks until no attempt is in flight or waiting to be recorded.
func (d *Dispatcher) Wait() {
	d.mu.Lock()
	for d.total > 0 || d.recording > 0 {
		d.idle.Wait()
	}
	d.mu.Unlock()
}

// RunDue sends everything due at the clock's current time, waits for every attempt to be
// recorded, then sends due notices. Tests drive time with a manual clock and call it.
func (d *Dispatcher) RunDue(ctx context.Context) error {
	for {
		n, err := d.Tick(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			d.Wait()
			if n, err = d.Tick(ctx); err != nil {
				return err
			}
			if n == 0 {
				break
			}
		}
	}
	_, err := d.app.Commands.SendNotices.Handle(ctx)
	return err
}
