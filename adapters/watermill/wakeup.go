package watermill

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
)

// Wakeup tells subscribers that events may be waiting: the outbox signals it after a
// commit that published, and the PostgreSQL listener when another instance did.
// A signal is level-triggered per subscriber (a one-slot channel), so one sent while a
// subscriber is busy polling is seen by its next wait, never lost. A signal names the
// partition keys of the events committed, and wakes only the subscribers of their
// partitions (one in Parts per consumer, not every partition's subscriber).
type Wakeup struct {
	mu   sync.Mutex
	subs map[chan struct{}]func(key uint32) bool
	// instance names this process in PostgreSQL notifications, so that its listener can
	// skip the ones its own commits already signalled in-process.
	instance string
}

// NewWakeup builds an empty broadcaster.
func NewWakeup() *Wakeup {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &Wakeup{subs: map[chan struct{}]func(uint32) bool{}, instance: hex.EncodeToString(b[:])}
}

// Instance is the random name of this process in notifications.
func (w *Wakeup) Instance() string { return w.instance }

// Notify wakes, without blocking, the subscribers that hold one of keys (every subscriber
// when keys is empty: a signal that does not know what was committed).
func (w *Wakeup) Notify(keys ...uint32) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch, holds := range w.subs {
		if !wants(holds, keys) {
			continue
		}
		select {
		case ch <- struct{}{}:
		default: // already pending
		}
	}
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
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	w.subs[ch] = holds
	w.mu.Unlock()
	return ch, func() {
		w.mu.Lock()
		delete(w.subs, ch)
		w.mu.Unlock()
	}
}

// notification is the PostgreSQL payload of a commit: "instance|key,key" (instance empty
// when the committing process did not signal in-process).
func notification(from string, keys []uint32) string {
	var b strings.Builder
	b.WriteString(from)
	b.WriteByte('|')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(k), 10))
	}
	return b.String()
}

// parseNotification reads a payload back; an unreadable key list means "wake everyone".
func parseNotification(payload string) (from string, keys []uint32) {
	from, list, found := strings.Cut(payload, "|")
	if !found || list == "" {
		return from, nil
	}
	for _, s := range strings.Split(list, ",") {
		k, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return from, nil
		}
		keys = append(keys, uint32(k))
	}
	return from, keys
}
