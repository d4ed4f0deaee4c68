package natstransport

import (
	"context"
	"log/slog"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrSilentPull is errSilentPull, for the package's tests.
var ErrSilentPull = errSilentPull

// TakeWatched is a part loop's wait for its next batch (take, with the pull watch), with
// idle between the consumer checks, until closing is closed.
func TakeWatched(ctx context.Context, cons jetstream.Consumer, it jetstream.MessagesContext, idle time.Duration, closing chan struct{}) ([]jetstream.Msg, error) {
	s := &batchSubscriber{name: cons.CachedInfo().Name, batch: 10, idle: idle, closing: closing,
		logger: watermill.NopLogger{}, warn: slog.New(slog.DiscardHandler)}
	return s.take(ctx, cons, it, false)
}
