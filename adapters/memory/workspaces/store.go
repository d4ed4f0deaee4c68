// Package workspaces is the in-memory twin of adapters/sql/workspaces: the repository
// and the published directory on a table behind one lock, passing the same contract
// suite (adapters/contracttest). It takes no part in transactions.
package workspaces

import (
	"context"
	"sort"
	"strings"

	"github.com/creatorapi/creatorapi/adapters/memory/memstore"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Store implements workspaces.Repository and query.Directory.
type Store struct {
	byID *memstore.Table[*workspaces.Workspace] // a workspace is its own scope
}

// New returns an empty store.
func New() *Store {
	return &Store{byID: memstore.New("workspace", func(w *workspaces.Workspace) string { return w.ID }, clone)}
}

func clone(w *workspaces.Workspace) *workspaces.Workspace {
	c := *w
	c.CreatedAt = c.CreatedAt.UTC()
	return &c
}

// Add inserts w; a second workspace with w's id is an error.
func (s *Store) Add(_ context.Context, w *workspaces.Workspace) error {
	return s.byID.Insert(w.ID, w)
}

// Get returns the workspace or NotFound.
func (s *Store) Get(_ context.Context, id string) (*workspaces.Workspace, error) {
	return s.byID.Get(id, id)
}

// Exists tells whether the workspace exists.
func (s *Store) Exists(_ context.Context, id string) (bool, error) {
	_, err := s.byID.Get(id, id)
	return err == nil, nil
}

// Find returns the workspaces among ids.
func (s *Store) Find(_ context.Context, ids []string) (map[string]workspaces.Workspace, error) {
	out := make(map[string]workspaces.Workspace, len(ids))
	for _, id := range ids {
		if w, err := s.byID.Get(id, id); err == nil {
			out[id] = *w
		}
	}
	return out, nil
}

// FoundedBy lists the workspaces email founded, by id.
func (s *Store) FoundedBy(_ context.Context, email string) ([]workspaces.Workspace, error) {
	var out []workspaces.Workspace
	for _, w := range s.byID.Select(func(w *workspaces.Workspace) bool { return strings.EqualFold(w.OwnerEmail, email) }) {
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
