package background

import (
	"context"
	"log/slog"
	"time"
)

// Chores makes named Every workers of functions that report how many rows they handled:
// an error is logged as a warning, a run that did something as information, an idle run
// not at all.
func Chores(logger *slog.Logger) func(name string, period time.Duration, fn func(ctx context.Context) (int, error)) Named {
	return func(name string, period time.Duration, fn func(ctx context.Context) (int, error)) Named {
		return Named{Name: name, Worker: Every(period, func(ctx context.Context) {
			if n, err := fn(ctx); err != nil {
				logger.Warn(name, "error", err)
			} else if n > 0 {
				logger.Info(name, "rows", n)
			}
		})}
	}
}

// Every runs fn every period between Start and Stop, and once more while stopping (a
// flush or a sweep then covers what came in since the last tick).
func Every(period time.Duration, fn func(ctx context.Context)) Worker {
	return &ticker{period: period, fn: fn}
}

type ticker struct {
	period time.Duration
	fn     func(ctx context.Context)
	stop   chan struct{}
	done   chan struct{}
}

func (t *ticker) Start(context.Context) error {
	t.stop, t.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(t.done)
		tick := time.NewTicker(t.period)
		defer tick.Stop()
		for {
			select {
			case <-t.stop:
				return
			case <-tick.C:
				t.fn(context.Background())
			}
		}
	}()
	return nil
}

func (t *ticker) Stop(ctx context.Context) error {
	if t.stop == nil {
		return nil
	}
	close(t.stop)
	<-t.done
	t.fn(ctx)
	return nil
}

// Loop runs run in a goroutine between Start and Stop; Stop closes the channel run
// watches and waits for run to return.
func Loop(run func(stop <-chan struct{})) Worker { return &loop{run: run} }

type loop struct {
	run  func(stop <-chan struct{})
	stop chan struct{}
	done chan struct{}
}

func (l *loop) Start(context.Context) error {
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	go func() { defer close(l.done); l.run(l.stop) }()
	return nil
}

func (l *loop) Stop(context.Context) error {
	if l.stop == nil {
		return nil
	}
	close(l.stop)
	<-l.done
	return nil
}

// AtStart runs fn once when started (a check or a catch-up before the workers after it);
// stopping does nothing.
func AtStart(fn func(ctx context.Context) error) Worker { return atStart(fn) }

type atStart func(ctx context.Context) error

func (f atStart) Start(ctx context.Context) error { return f(ctx) }
func (atStart) Stop(context.Context) error        { return nil }

// Hooks makes a worker of a start and a stop function (either may be nil).
func Hooks(start, stop func(ctx context.Context) error) Worker { return hooks{start, stop} }

type hooks struct {
	start, stop func(ctx context.Context) error
}

func (h hooks) Start(ctx context.Context) error {
	if h.start == nil {
		return nil
	}
	return h.start(ctx)
}

func (h hooks) Stop(ctx context.Context) error {
	if h.stop == nil {
		return nil
	}
	return h.stop(ctx)
}
