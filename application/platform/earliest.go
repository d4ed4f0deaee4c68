package platform

import (
	"context"
	"time"
)

// Earliest is a module's answer to "since when do your facts count": the oldest fact
// it holds over every workspace (the analytics rebuild guard asks every module whose
// facts the read model counts). OK is false when it holds none.
type Earliest struct {
	At time.Time
	OK bool
}

// EarliestFunc is a published port's method answering Earliest, as a handler (so that
// app.go decorates it like every use case).
type EarliestFunc func(ctx context.Context) (at time.Time, ok bool, err error)

// Handle asks the port.
func (f EarliestFunc) Handle(ctx context.Context, _ struct{}) (Earliest, error) {
	at, ok, err := f(ctx)
	return Earliest{At: at.UTC(), OK: ok}, err
}

// Consider keeps t when e holds nothing yet or something later: in-memory twins fold
// their facts into an Earliest.
func (e *Earliest) Consider(t time.Time) {
	if !e.OK || t.Before(e.At) {
		e.At, e.OK = t.UTC(), true
	}
}
