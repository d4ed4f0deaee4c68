package wakeup

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/application/events"
)

func TestWakeupSignalsOnlyThePartitionsOfTheKeys(t *testing.T) {
	w := New()
	key := events.PartitionKey("org_a")
	mine := eventbus.Part{Part: int(key % 4), Parts: 4}
	other := eventbus.Part{Part: int((key + 1) % 4), Parts: 4}
	sigMine, cancelMine := w.Subscribe(mine.Holds)
	defer cancelMine()
	sigOther, cancelOther := w.Subscribe(other.Holds)
	defer cancelOther()
	sigAll, cancelAll := w.Subscribe(nil)
	defer cancelAll()

	from, keys, _ := parseNotification(Notification("inst", []uint32{key}))
	if from != "inst" || len(keys) != 1 || keys[0] != key {
		t.Fatalf("Notification round trip: %q %v", from, keys)
	}
	w.Notify(keys...)
	if !signalled(sigMine) || signalled(sigOther) || !signalled(sigAll) {
		t.Fatal("a signal for one key must wake its partition's subscriber and the unfiltered one only")
	}
	w.Notify() // no keys: a reconnect, everyone
	if !signalled(sigMine) || !signalled(sigOther) || !signalled(sigAll) {
		t.Fatal("a signal without keys must wake every subscriber")
	}
	if _, keys, _ := parseNotification("inst|12,x"); keys != nil {
		t.Fatal("an unreadable key list must mean everyone")
	}
}

func TestWakeupSignalsCommitsOfTypesAConsumerDoesNotTakeLazily(t *testing.T) {
	w := New()
	revocations := events.Consumer{Name: "r", Types: []events.Type{"enrollment.revoked"}, Handle: func(context.Context, events.Envelope) error { return nil }}
	sig, lazy, cancel := w.SubscribeTypes(nil, revocations.Handles)
	defer cancel()
	sigAll, lazyAll, cancelAll := w.SubscribeTypes(nil, nil)
	defer cancelAll()
	if lazyAll != nil {
		t.Fatal("a consumer of every type needs no lazy signal")
	}
	w.NotifyEvents(nil, []events.Type{"student.created"})
	if signalled(sig) || !signalled(lazy) || !signalled(sigAll) {
		t.Fatal("a commit of a type the consumer does not take must signal it lazily only, and everyone else at once")
	}
	w.NotifyEvents(nil, []events.Type{"student.created", "enrollment.revoked"})
	if !signalled(sig) || signalled(lazy) {
		t.Fatal("a commit holding a type the consumer takes must wake it at once")
	}
	w.Notify() // types unknown (another instance, a reconnect): at once
	if !signalled(sig) || signalled(lazy) {
		t.Fatal("a signal without types must wake every subscriber at once")
	}
}

// Another instance's commit must signal as this instance's own does: its types travel in
// the notification, so a lazy or type-filtered consumer here is signalled lazily (without
// them, three instances polled once per commit per such consumer where one polled a second).
func TestWakeupNotificationCarriesTheTypesToOtherInstances(t *testing.T) {
	w := New()
	revocations := events.Consumer{Name: "r", Types: []events.Type{"enrollment.revoked"}, Handle: func(context.Context, events.Envelope) error { return nil }}
	sig, lazy, cancel := w.SubscribeTypes(nil, revocations.Handles)
	defer cancel()
	key := events.PartitionKey("org_a")
	from, keys, types := parseNotification(Notification("inst", []uint32{key}, "student.created", "order.paid"))
	if from != "inst" || len(keys) != 1 || keys[0] != key || len(types) != 2 || types[0] != "student.created" || types[1] != "order.paid" {
		t.Fatalf("Notification round trip: %q %v %v", from, keys, types)
	}
	w.NotifyEvents(keys, types)
	if signalled(sig) || !signalled(lazy) {
		t.Fatal("another instance's commit of types the consumer does not take must signal it lazily")
	}
	_, keys, types = parseNotification("inst|" + strconv.FormatUint(uint64(key), 10)) // an older instance's payload
	if len(keys) != 1 || types != nil {
		t.Fatalf("a payload without types: keys %v types %v", keys, types)
	}
	w.NotifyEvents(keys, types)
	if !signalled(sig) {
		t.Fatal("a notification without types must wake at once")
	}
}

// signalled tells whether ch holds a signal within 10 ms.
func signalled(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(10 * time.Millisecond):
		return false
	}
}
