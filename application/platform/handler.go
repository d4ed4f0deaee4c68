package platform

import (
	"context"
	"fmt"
	"time"
)

// Handler is the one shape of a use case: a command or a query in, a result or an error
// out. Modules write the use case body; Command and Query add what every use case needs.
type Handler[C, R any] interface {
	Handle(ctx context.Context, in C) (R, error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc[C, R any] func(ctx context.Context, in C) (R, error)

// Handle calls f.
func (f HandlerFunc[C, R]) Handle(ctx context.Context, in C) (R, error) { return f(ctx, in) }

// Observer watches every use case run: logging with the request id, metrics per use
// case, and tracing (an OpenTelemetry adapter starts a span in Begin, carries it in the
// returned context and ends it with the error).
type Observer interface {
	Begin(ctx context.Context, useCase string) (context.Context, func(err error))
}

// Timer is an Observer that needs nothing at a run's start but the time: a use case it
// observes calls End once the run is over, instead of the closure Begin returns (an
// allocation per run, paid on every request of the public API otherwise).
type Timer interface {
	Observer
	End(ctx context.Context, useCase string, start time.Time, err error)
}

// NoObserver observes nothing (unit tests that build a module without the graph).
type NoObserver struct{}

// Begin returns ctx and a no-op.
func (NoObserver) Begin(ctx context.Context, _ string) (context.Context, func(error)) {
	return ctx, func(error) {}
}

// Command decorates a state-changing use case: observed, its body run in one
// transaction (events published in it commit with the change), errors wrapped with
// the use case's name. A module writes the body as a method of its command Deps
// (func (d Deps) AddModule(ctx, cmd AddModule) (query.Module, error)) and passes
// the method value.
func Command[C, R any](name string, tx Transactor, obs Observer, h HandlerFunc[C, R]) Handler[C, R] {
	return observed(name, obs, within(tx.WithinTx, h))
}

// Item decorates a use case that runs as one item of a batch: as Command, but when a
// transaction is open already (an Idempotency-Key's record holds one around the whole
// request) the item runs under a savepoint, so that its error undoes its own writes only.
func Item[C, R any](name string, tx Transactor, obs Observer, h HandlerFunc[C, R]) Handler[C, R] {
	return observed(name, obs, within(tx.WithinSavepoint, h))
}

func within[C, R any](run func(context.Context, func(context.Context) error) error, h HandlerFunc[C, R]) HandlerFunc[C, R] {
	return func(ctx context.Context, in C) (R, error) {
		var out R
		err := run(ctx, func(ctx context.Context) error {
			var err error
			out, err = h(ctx, in)
			return err
		})
		return out, err
	}
}

// Query decorates a read-only use case: observed, errors wrapped with its name.
func Query[C, R any](name string, obs Observer, h HandlerFunc[C, R]) Handler[C, R] {
	return observed(name, obs, h)
}

func observed[C, R any](name string, obs Observer, h Handler[C, R]) Handler[C, R] {
	if obs == nil {
		obs = NoObserver{}
	}
	if t, ok := obs.(Timer); ok {
		return HandlerFunc[C, R](func(ctx context.Context, in C) (R, error) {
			start := time.Now()
			out, err := h.Handle(ctx, in)
			if err != nil {
				var zero R
				out, err = zero, fmt.Errorf("%s: %w", name, err)
			}
			t.End(ctx, name, start, err)
			return out, err
		})
	}
	return HandlerFunc[C, R](func(ctx context.Context, in C) (R, error) {
		ctx, end := obs.Begin(ctx, name)
		out, err := h.Handle(ctx, in)
		if err != nil {
			var zero R
			out, err = zero, fmt.Errorf("%s: %w", name, err)
		}
		end(err)
		return out, err
	})
}

type requestID string

// WithRequestID carries the request id of the call in ctx (set by the HTTP ports).
func WithRequestID(ctx context.Context, id string) context.Context {
	return withValue(ctx, requestID(id))
}

// RequestID is the id WithRequestID put in ctx, or "".
func RequestID(ctx context.Context) string { return string(valueOf[requestID](ctx)) }

// contextKey keys the one value of type T a context carries for the platform.
type contextKey[T any] struct{}

func withValue[T any](ctx context.Context, v T) context.Context {
	return context.WithValue(ctx, contextKey[T]{}, v)
}

// valueOf is the T in ctx, or T's zero value.
func valueOf[T any](ctx context.Context) T {
	v, _ := ctx.Value(contextKey[T]{}).(T)
	return v
}

// Upsert is the result of a use case that stores something or finds it stored already
// (idempotent creates): Created tells which, for the port's 201 or 200.
type Upsert[R any] struct {
	Value   R
	Created bool
}

// Kit is what every module's commands take from the platform; module Deps embed it next
// to their own ports, and the composition root builds it once.
type Kit struct {
	Tx        Transactor
	Publisher Publisher
	IDs       IDs
	Clock     Clock
	Observer  Observer // logging, metrics and tracing of every use case
}
