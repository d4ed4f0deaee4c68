package wakeup

import (
	"testing"

	"github.com/creatorapi/creatorapi/application/events"
)

// Commits queued while a NOTIFY is in flight go out as one: the union of their keys and
// types; one commit of unknown keys or types makes the merged one wake everyone at once.
func TestNotifierMergesTheCommitsQueuedMeanwhile(t *testing.T) {
	n := NewNotifier(nil, "inst", nil)
	n.running = true // a NOTIFY in flight: Send only queues
	n.Send([]uint32{1, 2}, []events.Type{"student.created"})
	n.Send([]uint32{2, 3}, []events.Type{"order.paid", "student.created"})
	payload, ok := n.take()
	if want := "inst|1,2,3|student.created,order.paid"; !ok || payload != want {
		t.Fatalf("merged payload %q, want %q", payload, want)
	}
	if _, ok := n.take(); ok || n.running {
		t.Fatal("nothing queued: take must report false and stop the notifier")
	}
	n.running = true
	n.Send([]uint32{1}, []events.Type{"student.created"})
	n.Send(nil, nil) // keys and types unknown
	if payload, _ := n.take(); payload != "inst||" {
		t.Fatalf("with an unknown commit merged: %q, want every partition at once", payload)
	}
	n.running = true
	for k := range uint32(maxKeys + 1) {
		n.Send([]uint32{k}, []events.Type{"student.created"})
	}
	if payload, _ := n.take(); payload != "inst||student.created" {
		t.Fatalf("beyond %d keys the payload must name none (every partition): %q", maxKeys, payload)
	}
}
