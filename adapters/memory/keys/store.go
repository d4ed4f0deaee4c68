// Package keys is the in-memory twin of adapters/sql/keys: the key repository with its
// pages, and the usage store with its request counts, on a memstore table and maps behind
// its lock. It keeps the same rules (ids and lookups unique, so of concurrent adds of one
// lookup exactly one lands; NotFound outside the workspace; a revocation stored once, the
// earliest kept; last uses only move forward; request counts add up per key and day) and
// passes the same contract suites (adapters/contracttest). It does not take part in
// transactions.
package keys

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/adapters/memory/memstore"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// Store holds the data; Repository and Usage are its ports.
type Store struct {
	keys *memstore.Table[*keys.Key]
	// Guarded by the keys' lock:
	byLookup map[string]string // key id
	requests map[query.KeyDay]int64
}

// New returns an empty store.
func New() *Store {
	scope := func(k *keys.Key) string { return k.WorkspaceID }
	return &Store{keys: memstore.New("key", scope, clone), byLookup: map[string]string{}, requests: map[query.KeyDay]int64{}}
}

// Repository implements keys.Repository and query.KeyPages.
type Repository struct{ *Store }

// Usage implements query.UsageStore and query.RequestCounts.
type Usage struct{ *Store }

// Repository is the store's key repository.
func (s *Store) Repository() Repository { return Repository{s} }

// Usage is the store's usage store.
func (s *Store) Usage() Usage { return Usage{s} }

// clone copies the key so that callers never share memory with the store.
func clone(k *keys.Key) *keys.Key {
	out := *k
	out.SecretHash = append([]byte(nil), k.SecretHash...)
	out.Scopes = append([]keys.Scope(nil), k.Scopes...)
	out.CreatedAt = k.CreatedAt.UTC()
	out.RevokedAt, out.LastUsedAt = platform.UTCPtr(k.RevokedAt), platform.UTCPtr(k.LastUsedAt)
	return &out
}

// Add inserts k; an id or a lookup that exists already is an error (the unique keys).
func (r Repository) Add(_ context.Context, k *keys.Key) error {
	r.keys.Lock()
	defer r.keys.Unlock()
	if _, taken := r.byLookup[k.Lookup]; taken {
		return fmt.Errorf("insert key: lookup %s exists", k.Lookup)
	}
	if err := r.keys.InsertLocked(k.ID, k); err != nil {
		return err
	}
	r.byLookup[k.Lookup] = k.ID
	return nil
}

// Get returns the key of the workspace or NotFound.
func (r Repository) Get(_ context.Context, workspaceID, id string) (*keys.Key, error) {
	return r.keys.Get(workspaceID, id)
}

// FindByLookup returns the key with this lookup part or NotFound.
func (r Repository) FindByLookup(_ context.Context, lookup string) (*keys.Key, error) {
	r.keys.RLock()
	defer r.keys.RUnlock()
	id, ok := r.byLookup[lookup]
	if !ok {
		return nil, kernel.NotFound("key not found")
	}
	return clone(r.keys.Rows[id]), nil
}

// newestFirst lists the workspace's keys by created_at DESC, id DESC; the caller
// holds the lock.
func (s *Store) newestFirst(workspaceID string) []*keys.Key {
	var out []*keys.Key
	for _, k := range s.keys.Rows {
		if k.WorkspaceID == workspaceID {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

func clones(list []*keys.Key) []*keys.Key {
	out := make([]*keys.Key, len(list))
	for i, k := range list {
		out[i] = clone(k)
	}
	return out
}

// List returns the workspace's keys, newest first.
func (r Repository) List(_ context.Context, workspaceID string) ([]*keys.Key, error) {
	r.keys.RLock()
	defer r.keys.RUnlock()
	return clones(r.newestFirst(workspaceID)), nil
}

// Page returns up to limit keys after after (nil: from the newest), newest first.
func (r Repository) Page(_ context.Context, workspaceID string, after *platform.Position, limit int) ([]*keys.Key, error) {
	r.keys.RLock()
	defer r.keys.RUnlock()
	var out []*keys.Key
	for _, k := range r.newestFirst(workspaceID) {
		if len(out) == limit {
			break
		}
		if after != nil && !(k.CreatedAt.Before(after.CreatedAt) || k.CreatedAt.Equal(after.CreatedAt) && k.ID < after.ID) {
			continue
		}
		out = append(out, k)
	}
	return clones(out), nil
}

// Count returns the active keys and those created before rotateBefore.
func (r Repository) Count(_ context.Context, workspaceID string, rotateBefore time.Time) (active, due int, err error) {
	r.keys.RLock()
	defer r.keys.RUnlock()
	for _, k := range r.keys.Rows {
		if k.WorkspaceID != workspaceID || !k.Active() {
			continue
		}
		active++
		if k.CreatedAt.Before(rotateBefore) {
			due++
		}
	}
	return active, due, nil
}

// SaveRevocation stores the revocation time unless the key was revoked already.
func (r Repository) SaveRevocation(_ context.Context, k *keys.Key) (bool, error) {
	r.keys.Lock()
	defer r.keys.Unlock()
	stored, ok := r.keys.Find(k.WorkspaceID, k.ID)
	if !ok || !stored.Active() {
		return false, nil
	}
	stored.RevokedAt = platform.UTCPtr(k.RevokedAt)
	return true, nil
}

// TouchLastUsed moves each key's last use forward, never back.
func (u Usage) TouchLastUsed(_ context.Context, lastUsed map[string]time.Time) error {
	u.keys.Lock()
	defer u.keys.Unlock()
	for id, at := range lastUsed {
		if k, ok := u.keys.Rows[id]; ok && (k.LastUsedAt == nil || k.LastUsedAt.Before(at)) {
			at := at.UTC()
			k.LastUsedAt = &at
		}
	}
	return nil
}

// AddRequests adds request counts per key and day; unknown keys are skipped.
func (u Usage) AddRequests(_ context.Context, counts map[query.KeyDay]int64) error {
	u.keys.Lock()
	defer u.keys.Unlock()
	for kd, n := range counts {
		if _, ok := u.keys.Rows[kd.KeyID]; ok {
			u.requests[kd] += n
		}
	}
	return nil
}

// Daily lists the workspace's counts for the days [from, to], by key name, key id, day.
func (u Usage) Daily(_ context.Context, workspaceID, from, to string) ([]query.RequestDay, error) {
	u.keys.RLock()
	defer u.keys.RUnlock()
	var out []query.RequestDay
	for kd, n := range u.requests {
		k := u.keys.Rows[kd.KeyID]
		if k.WorkspaceID == workspaceID && kd.Day >= from && kd.Day <= to {
			out = append(out, query.RequestDay{KeyID: k.ID, Name: k.Name, Day: kd.Day, Requests: n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.KeyID != b.KeyID {
			return a.KeyID < b.KeyID
		}
		return a.Day < b.Day
	})
	return out, nil
}
