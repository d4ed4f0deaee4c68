// Package workspaces is the in-memory twin of adapters/sql/workspaces: the repository
// and the published directory on a map behind one mutex, passing the same contract
// suite (adapters/contracttest). It takes no part in transactions.
package workspaces

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Store implements workspaces.Repository and query.Directory.
type Store struct {
	mu   sync.RWMutex
	byID map[string]workspaces.Workspace
}

// New returns an empty store.
func New() *Store { return &Store{byID: map[string]workspaces.Workspace{}} }

// Add inserts w; a second workspace with w's id is an error.
func (s *Store) Add(_ context.Context, w *workspaces.Workspace) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[w.ID]; ok {
		return fmt.Errorf("insert workspace: %s exists", w.ID)
	}
	c := *w
	c.CreatedAt = c.CreatedAt.UTC()
	s.byID[w.ID] = c
	return nil
}

// Get returns the workspace or NotFound.
func (s *Store) Get(_ context.Context, id string) (*workspaces.Workspace, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	w, ok := s.byID[id]
	if !ok {
		return nil, kernel.NotFound("workspace %s not found", id)
	}
	return &w, nil
}

// Exists tells whether the workspace exists.
func (s *Store) Exists(_ context.Context, id string) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.byID[id]
	return ok, nil
}

// Find returns the workspaces among ids.
func (s *Store) Find(_ context.Context, ids []string) (map[string]workspaces.Workspace, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]workspaces.Workspace, len(ids))
	for _, id := range ids {
		if w, ok := s.byID[id]; ok {
			out[id] = w
		}
	}
	return out, nil
}

// FoundedBy lists the workspaces email founded, by id.
func (s *Store) FoundedBy(_ context.Context, email string) ([]workspaces.Workspace, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []workspaces.Workspace
	for _, w := range s.byID {
		if strings.EqualFold(w.OwnerEmail, email) {
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
