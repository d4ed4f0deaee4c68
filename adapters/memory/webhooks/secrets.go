package webhooks

import (
	"bytes"
	"context"
	"sort"
)

// Secrets implements the module's published port to the master key
// (application/webhooks.SealedSecrets) over the store's sealed bytes. The store's lock
// stands in for the SQL twin's row locks while ResealAll runs, so reseal must not call
// the store; like every memory twin it takes no part in the caller's transaction.
type Secrets struct{ *Store }

// Secrets is the store's sealed secrets, for the master key.
func (s *Store) Secrets() Secrets { return Secrets{s} }

// OpensAny tells whether open opens at least one of the newest n sealed secrets
// (newest endpoint first, ties by id, descending), or there are none.
func (r Secrets) OpensAny(_ context.Context, n int, open func(owner string, sealed []byte) bool) (bool, error) {
	type sample struct {
		id     string
		sealed []byte
	}
	r.mu.Lock()
	subs := make([]sample, 0, len(r.subs))
	for _, sub := range r.newestFirst() {
		subs = append(subs, sample{sub, bytes.Clone(r.sealed[sub].current)})
	}
	r.mu.Unlock()
	subs = subs[:min(max(n, 0), len(subs))]
	for _, s := range subs {
		if open(s.id, s.sealed) {
			return true, nil
		}
	}
	return len(subs) == 0, nil
}

// ResealAll replaces every endpoint's sealed secrets (current and previous) by reseal's
// answer, in id order. An endpoint whose secrets reseal refuses (either of them) keeps
// both as they were and is listed in unreadable.
func (r Secrets) ResealAll(_ context.Context, reseal func(owner string, sealed []byte) ([]byte, error)) (resealed int, unreadable []string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.sealed))
	for id := range r.sealed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	unreadable = []string{}
	for _, id := range ids {
		old := r.sealed[id]
		current, err := reseal(id, bytes.Clone(old.current))
		var previous []byte
		if err == nil && old.previous != nil {
			previous, err = reseal(id, bytes.Clone(old.previous))
		}
		if err != nil {
			unreadable = append(unreadable, id)
			continue
		}
		r.sealed[id] = sealedPair{current: bytes.Clone(current), previous: bytes.Clone(previous)}
		resealed++
	}
	return resealed, unreadable, nil
}

// newestFirst returns the endpoints' ids, newest first (ties by id, descending), as the
// SQL twin's sample reads them; the caller holds the lock.
func (s *Store) newestFirst() []string {
	ids := make([]string, 0, len(s.subs))
	for id := range s.subs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := s.subs[ids[i]], s.subs[ids[j]]
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.After(b.CreatedAt)
		}
		return a.ID > b.ID
	})
	return ids
}
