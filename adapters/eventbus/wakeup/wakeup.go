package wakeup

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/creatorapi/creatorapi/application/events"
)

// Wakeup tells subscribers that events may be waiting: the outbox signals it after a
// commit that published, and the PostgreSQL listener when another instance did.
// A signal is level-triggered per subscriber (a one-slot channel), so one sent while a
// subscriber is busy polling is seen by its next wait, never lost. A signal names the
// partition keys of the events committed, and wakes only the subscribers of their
// partitions (one in Parts per consumer, not every partition's subscriber).
type Wakeup struct {
	mu   sync.Mutex
	subs map[chan struct{}]wakeSub
	// instance names this process in PostgreSQL notifications, so that its listener can
	// skip the ones its own commits already signalled in-process.
	instance string
}

// New builds an empty broadcaster.
func New() *Wakeup {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &Wakeup{subs: map[chan struct{}]wakeSub{}, instance: hex.EncodeToString(b[:])}
}

// wakeSub is one subscriber: the partition keys it holds and the event types its consumer
// takes (nil: all), and where a signal of events it does not take goes (nil: nowhere).
type wakeSub struct {
	holds func(key uint32) bool
	takes func(events.Type) bool
	lazy  chan struct{}
}

// Instance is the random name of this process in notifications.
func (w *Wakeup) Instance() string { return w.instance }

// Notify wakes, without blocking, the subscribers that hold one of keys (every subscriber
// when keys is empty: a signal that does not know what was committed).
func (w *Wakeup) Notify(keys ...uint32) { w.NotifyEvents(keys, nil) }

// NotifyEvents wakes the subscribers that hold one of keys, as Notify, when their consumer
// takes one of types (or types is empty: unknown). The others get a lazy signal: they only
// have to move their position past these events, which can wait for one poll of many.
func (w *Wakeup) NotifyEvents(keys []uint32, types []events.Type) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch, sub := range w.subs {
		if !wants(sub.holds, keys) {
			continue
		}
		if !takesAny(sub.takes, types) {
			if ch = sub.lazy; ch == nil {
				continue
			}
		}
		select {
		case ch <- struct{}{}:
		default: // already pending
		}
	}
}

func takesAny(takes func(events.Type) bool, types []events.Type) bool {
	if takes == nil || len(types) == 0 {
		return true
	}
	return slices.ContainsFunc(types, takes)
}

func wants(holds func(uint32) bool, keys []uint32) bool {
	if holds == nil || len(keys) == 0 {
		return true
	}
	for _, k := range keys {
		if holds(k) {
			return true
		}
	}
	return false
}

// Subscribe returns a channel that receives a signal after a Notify for a key holds
// accepts (nil: every Notify); cancel releases it.
func (w *Wakeup) Subscribe(holds func(key uint32) bool) (signals <-chan struct{}, cancel func()) {
	signals, _, cancel = w.SubscribeTypes(holds, nil)
	return signals, cancel
}

// SubscribeTypes is Subscribe for a consumer that takes only the types takes accepts (nil:
// all): commits of other types only signal lazy (see NotifyEvents).
func (w *Wakeup) SubscribeTypes(holds func(key uint32) bool, takes func(events.Type) bool) (signals, lazy <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	sub := wakeSub{holds: holds, takes: takes}
	if takes != nil {
		sub.lazy = make(chan struct{}, 1)
	}
	w.mu.Lock()
	w.subs[ch] = sub
	w.mu.Unlock()
	return ch, sub.lazy, func() {
		w.mu.Lock()
		delete(w.subs, ch)
		w.mu.Unlock()
	}
}

// Notification is the PostgreSQL payload of a commit: "instance|key,key|type,type"
// (instance empty when the committing process did not signal in-process). The types let
// other instances signal lazily as this one does (NotifyEvents): without them every commit
// of another instance woke its lazy and type-filtered consumers at once, a poll
// transaction per commit and consumer that one instance does not run.
func Notification(from string, keys []uint32, types ...events.Type) string {
	var b strings.Builder
	b.WriteString(from)
	b.WriteByte('|')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(k), 10))
	}
	b.WriteByte('|')
	for i, t := range types {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(t))
	}
	return b.String()
}

// parseNotification reads a payload back; an unreadable key list means "wake everyone",
// and no type list (an older instance's payload) means "types unknown": at once.
func parseNotification(payload string) (from string, keys []uint32, types []events.Type) {
	from, rest, found := strings.Cut(payload, "|")
	if !found {
		return from, nil, nil
	}
	list, typeList, _ := strings.Cut(rest, "|")
	if typeList != "" {
		for _, t := range strings.Split(typeList, ",") {
			types = append(types, events.Type(t))
		}
	}
	if list == "" {
		return from, nil, types
	}
	for _, s := range strings.Split(list, ",") {
		k, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return from, nil, types
		}
		keys = append(keys, uint32(k))
	}
	return from, keys, types
}
