package watermill

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
)

// Wakeup tells subscribers that events may be waiting: the outbox signals it after a
// commit that published, and the PostgreSQL listener when another instance did.
// A signal is level-triggered per subscriber (a one-slot channel), so one sent while a
// subscriber is busy polling is seen by its next wait, never lost.
type Wakeup struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
	// instance names this process in PostgreSQL notifications, so that its listener can
	// skip the ones its own commits already signalled in-process.
	instance string
}

// NewWakeup builds an empty broadcaster.
func NewWakeup() *Wakeup {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &Wakeup{subs: map[chan struct{}]struct{}{}, instance: hex.EncodeToString(b[:])}
}

// Notify wakes every subscriber without blocking.
func (w *Wakeup) Notify() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.subs {
		select {
		case ch <- struct{}{}:
		default: // already pending
		}
	}
}

// Subscribe returns a channel that receives a signal after Notify; cancel releases it.
func (w *Wakeup) Subscribe() (signals <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	w.subs[ch] = struct{}{}
	w.mu.Unlock()
	return ch, func() {
		w.mu.Lock()
		delete(w.subs, ch)
		w.mu.Unlock()
	}
}
