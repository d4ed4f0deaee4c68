package drain

import (
	"context"
	"fmt"
	"sync"

	"github.com/ThreeDotsLabs/watermill/message"
)

// ErrStopping refuses an event while draining; it wraps context.Canceled so that the
// router does not log it as a failure. The event was not applied and will come again.
var ErrStopping = fmt.Errorf("events router stopping: %w", context.Canceled)

// Subscriber closes only once the event being handled is done. The message
// router closes subscribers while handlers still run, and watermill-sql would then
// commit the batch transaction under the handler's feet.
type Subscriber struct {
	message.Subscriber
	mu        sync.Mutex
	draining  bool
	inflight  sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Subscribe detaches the subscription from ctx: the message router cancels its context
// as soon as it starts closing, which would fail the batch's ack and roll back what
// was already applied. Close alone ends the subscription, after the drain.
func (d *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	d.mu.Lock()
	draining := d.draining
	d.mu.Unlock()
	if draining {
		// Closed: a handler the router still holds (its first subscribe failed) starts on a
		// closed channel, stops at once, and the router forgets it.
		closed := make(chan *message.Message)
		close(closed)
		return closed, nil
	}
	return d.Subscriber.Subscribe(context.WithoutCancel(ctx), topic)
}

// Enter admits an event unless the subscriber is draining; Leave ends it.
func (d *Subscriber) Enter() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.inflight.Add(1)
	return true
}

func (d *Subscriber) Leave() { d.inflight.Done() }

// Close refuses new events, waits for the current one, then closes the subscriber.
// Both router.Router.Stop and the message router call it; the first call does the work.
func (d *Subscriber) Close() error {
	d.closeOnce.Do(func() {
		d.mu.Lock()
		d.draining = true
		d.mu.Unlock()
		d.inflight.Wait()
		d.closeErr = d.Subscriber.Close()
	})
	return d.closeErr
}
