package testenv

import (
	"context"
	"testing"
	"time"
)

// consumersWait bounds WaitForConsumers: a stuck consumer fails the test, never hangs it.
const consumersWait = 30 * time.Second

// WaitForConsumers waits until every consumer group of the service has consumed the
// outbox up to its head as it is now (projections are eventually consistent).
//
// A consumer is not woken by commits of event types it does not take: its position
// passes them at its next safety poll (1 s, adapters/eventbus/sqltransport/gate.go). So
// the wait wakes every consumer itself, as a commit of every type would, instead of the
// services polling every 50 ms for it (an idle instance's largest cost on PostgreSQL).
func (e *Env) WaitForConsumers(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(consumersWait)
	e.wake.Notify() // once: every consumer polls
	for _, c := range e.router.Consumers() {
		for i := 1; ; i++ {
			ok, err := e.pos.CaughtUp(ctx, c.Name)
			if err != nil {
				t.Fatalf("consumer %s: %v", c.Name, err)
			}
			if ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("consumer %s still behind the outbox head after %s", c.Name, consumersWait)
			}
			if i%10 == 0 { // every 50 ms while behind: events the consumers' handlers publish
				e.wake.Notify()
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// CaughtUp tells whether consumer group has consumed the outbox up to its head.
func (e *Env) CaughtUp(t testing.TB, group string) bool {
	t.Helper()
	ok, err := e.pos.CaughtUp(context.Background(), group)
	if err != nil {
		t.Fatalf("consumer %s: %v", group, err)
	}
	return ok
}
