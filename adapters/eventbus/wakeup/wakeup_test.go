package watermill

import (
	"context"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
)

func TestPartGroupNamesReadBack(t *testing.T) {
	cases := []struct {
		consumer    string
		part, parts int
		want        string
	}{
		{"analytics-projection", 0, 1, "analytics-projection"},
		{"analytics-projection", 3, 8, "analytics-projection/p3of8"},
		{"webhook-fanout", 0, 2, "webhook-fanout/p0of2"},
	}
	for _, c := range cases {
		g := PartGroup(c.consumer, c.part, c.parts)
		if g != c.want {
			t.Fatalf("PartGroup(%s, %d, %d) = %s, want %s", c.consumer, c.part, c.parts, g, c.want)
		}
		part, parts, ok := parsePartGroup(g, c.consumer)
		if !ok || part != c.part || parts != c.parts {
			t.Fatalf("parsePartGroup(%s) = %d, %d, %v", g, part, parts, ok)
		}
	}
	for _, g := range []string{"other", "analytics-projection/p8of8", "analytics-projection/pxof8", "analytics-projection-2"} {
		if _, _, ok := parsePartGroup(g, "analytics-projection"); ok {
			t.Fatalf("parsePartGroup(%s) accepted another consumer's or a broken name", g)
		}
	}
	if part, parts, ok := partOfGroup("a/b/p1of4"); !ok || part != 1 || parts != 4 {
		t.Fatalf("partOfGroup(a/b/p1of4) = %d, %d, %v", part, parts, ok)
	}
	if _, _, ok := partOfGroup("plain"); ok {
		t.Fatal("partOfGroup(plain) took a name without partitions")
	}
}

func TestWakeupSignalsOnlyThePartitionsOfTheKeys(t *testing.T) {
	w := NewWakeup()
	key := events.PartitionKey("org_a")
	mine := Part{Part: int(key % 4), Parts: 4}
	other := Part{Part: int((key + 1) % 4), Parts: 4}
	sigMine, cancelMine := w.Subscribe(mine.Holds)
	defer cancelMine()
	sigOther, cancelOther := w.Subscribe(other.Holds)
	defer cancelOther()
	sigAll, cancelAll := w.Subscribe(nil)
	defer cancelAll()

	from, keys := parseNotification(notification("inst", []uint32{key}))
	if from != "inst" || len(keys) != 1 || keys[0] != key {
		t.Fatalf("notification round trip: %q %v", from, keys)
	}
	w.Notify(keys...)
	got := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		case <-time.After(10 * time.Millisecond):
			return false
		}
	}
	if !got(sigMine) || got(sigOther) || !got(sigAll) {
		t.Fatal("a signal for one key must wake its partition's subscriber and the unfiltered one only")
	}
	w.Notify() // no keys: a reconnect, everyone
	if !got(sigMine) || !got(sigOther) || !got(sigAll) {
		t.Fatal("a signal without keys must wake every subscriber")
	}
	if _, keys := parseNotification("inst|12,x"); keys != nil {
		t.Fatal("an unreadable key list must mean everyone")
	}
}

func TestWakeupSignalsCommitsOfTypesAConsumerDoesNotTakeLazily(t *testing.T) {
	w := NewWakeup()
	revocations := events.Consumer{Name: "r", Types: []events.Type{"enrollment.revoked"}, Handle: func(context.Context, events.Envelope) error { return nil }}
	sig, lazy, cancel := w.SubscribeTypes(nil, revocations.Handles)
	defer cancel()
	sigAll, lazyAll, cancelAll := w.SubscribeTypes(nil, nil)
	defer cancelAll()
	got := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		case <-time.After(10 * time.Millisecond):
			return false
		}
	}
	if lazyAll != nil {
		t.Fatal("a consumer of every type needs no lazy signal")
	}
	w.NotifyEvents(nil, []events.Type{"student.created"})
	if got(sig) || !got(lazy) || !got(sigAll) {
		t.Fatal("a commit of a type the consumer does not take must signal it lazily only, and everyone else at once")
	}
	w.NotifyEvents(nil, []events.Type{"student.created", "enrollment.revoked"})
	if !got(sig) || got(lazy) {
		t.Fatal("a commit holding a type the consumer takes must wake it at once")
	}
	w.Notify() // types unknown (another instance, a reconnect): at once
	if !got(sig) || got(lazy) {
		t.Fatal("a signal without types must wake every subscriber at once")
	}
}
