package natstransport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// errSilentPull is a part's pull that delivers nothing while its consumer holds events
// for it and none is outstanding: the client believes a pull request is on the server,
// the server has none that it serves, and neither side's heartbeat check notices.
var errSilentPull = errors.New("jetstream pull silent while events wait")

// idleCheck is how long a part's pull waits for a message before it asks its consumer
// whether events wait: a live pull request is renewed every pullExpiry and takes what is
// pending at once.
const idleCheck = pullExpiry + time.Second

// pullWatch follows one wait of a part's pull. A pull is silent when two checks an idle
// wait apart both find events pending, none outstanding (nothing delivered and unacknowledged,
// which a redelivery would serve), and the consumer's delivered sequence unmoved.
type pullWatch struct {
	suspect   bool
	delivered uint64
}

// idleFor is called after each wait of idle without a message; it returns errSilentPull
// once the pull is silent.
func (w *pullWatch) idleFor(ctx context.Context, cons jetstream.Consumer, idle time.Duration) error {
	ictx, cancel := context.WithTimeout(ctx, apiTimeout)
	info, err := cons.Info(ictx)
	cancel()
	if err != nil {
		// The broker is away or the consumer has no leader: the pull's heartbeats cover
		// that, and the next check looks again.
		w.suspect = false
		return nil
	}
	stuck := info.NumPending > 0 && info.NumAckPending == 0
	if stuck && w.suspect && info.Delivered.Consumer == w.delivered {
		return fmt.Errorf("%w: %d pending, none outstanding, %d pull requests on the server, nothing delivered for %s",
			errSilentPull, info.NumPending, info.NumWaiting, 2*idle)
	}
	w.suspect, w.delivered = stuck, info.Delivered.Consumer
	return nil
}

// stepDown asks a replicated consumer's leader to hand over to another replica, after its
// pull went silent: a new pull alone does not revive a consumer that stopped delivering on
// the server (nats-server issues 4189, 4736: pending events, no delivery, until a step-down
// or a new consumer). A lone server has no other replica: nothing to ask.
func (s *batchSubscriber) stepDown(ctx context.Context) {
	if s.broker == nil || s.broker.cfg.replicas() < 2 {
		return
	}
	if err := StepDownConsumer(ctx, s.nc, s.broker.cfg.StreamName(), s.name); err != nil {
		s.warn.Warn("jetstream consumer leader step-down", "error", err)
	}
}

// StepDownConsumer asks the leader of stream's consumer to step down (the JetStream API
// request that `nats consumer cluster step-down` sends; the jetstream package has none).
func StepDownConsumer(ctx context.Context, nc *nats.Conn, stream, consumer string) error {
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	resp, err := nc.RequestWithContext(ctx, fmt.Sprintf("$JS.API.CONSUMER.LEADER.STEPDOWN.%s.%s", stream, consumer), nil)
	if err != nil {
		return fmt.Errorf("step down the leader of %s: %w", consumer, err)
	}
	var answer struct {
		Error *struct {
			Description string `json:"description"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp.Data, &answer); err != nil {
		return fmt.Errorf("step down the leader of %s: %w", consumer, err)
	}
	if answer.Error != nil {
		return fmt.Errorf("step down the leader of %s: %s", consumer, answer.Error.Description)
	}
	return nil
}

// reopenAfter is the pause before a part's pull is made again after err ended it. After a
// silent pull it outlasts the old pull's last request (pullExpiry): whatever that still
// delivers goes to no reader and stays outstanding, so the new pull finds it and takes it
// first (recovering), before any newer event.
func reopenAfter(err error) time.Duration {
	if errors.Is(err, errSilentPull) {
		return pullExpiry + reopenWait
	}
	return reopenWait
}
