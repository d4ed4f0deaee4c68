package container

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Receiver is a webhook endpoint on loopback that takes hold to answer each delivery
// (so that deliveries are in flight when an instance is stopped or killed) and records
// when each event arrived.
type Receiver struct {
	URL  string
	hold atomic.Int64 // nanoseconds
	mu   sync.Mutex
	at   map[string][]time.Time // event id -> arrivals
}

// NewReceiver starts a receiver answering 200 after hold; closed at cleanup.
func NewReceiver(t *testing.T, hold time.Duration) *Receiver {
	r := &Receiver{at: map[string][]time.Time{}}
	r.SetHold(hold)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		arrived := time.Now()
		var env struct{ ID string }
		if err := json.NewDecoder(req.Body).Decode(&env); err != nil || env.ID == "" {
			http.Error(w, "no envelope", http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.at[env.ID] = append(r.at[env.ID], arrived)
		r.mu.Unlock()
		time.Sleep(time.Duration(r.hold.Load()))
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL + "/hooks"
	return r
}

// SetHold changes how long the receiver takes to answer.
func (r *Receiver) SetHold(d time.Duration) { r.hold.Store(int64(d)) }

// Distinct is how many events arrived at least once.
func (r *Receiver) Distinct() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.at)
}

// Arrivals copies the record.
func (r *Receiver) Arrivals() map[string][]time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string][]time.Time, len(r.at))
	for id, ts := range r.at {
		out[id] = append([]time.Time(nil), ts...)
	}
	return out
}

// waitFor polls cond every 50 ms until it holds or within passes.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
