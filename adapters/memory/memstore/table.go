// Package memstore holds what every in-memory twin does alike: rows kept as copies by
// id, each in one workspace, behind one lock, found only inside their workspace. A twin
// keeps its own rules (uniqueness, what an update may change) and its extra indexes,
// which the table's lock guards too.
package memstore

import (
	"fmt"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Table is the rows of one kind, by id. The embedded lock guards Rows and whatever
// the twin keeps beside them; the methods take it themselves.
type Table[T any] struct {
	sync.RWMutex
	Rows  map[string]T // copies, never handed out
	what  string       // names a row in errors: "order"
	scope func(T) string
	clone func(T) T
}

// New returns an empty table of rows named what, whose workspace scope tells and
// which clone copies (instants in UTC, slices and maps not shared).
func New[T any](what string, scope func(T) string, clone func(T) T) *Table[T] {
	return &Table[T]{Rows: map[string]T{}, what: what, scope: scope, clone: clone}
}

// Find returns the stored row id of the workspace; the caller holds the lock.
func (t *Table[T]) Find(workspaceID, id string) (T, bool) {
	row, ok := t.Rows[id]
	if !ok || t.scope(row) != workspaceID {
		var zero T
		return zero, false
	}
	return row, true
}

// Get returns a copy of the workspace's row id, or NotFound.
func (t *Table[T]) Get(workspaceID, id string) (T, error) {
	t.RLock()
	defer t.RUnlock()
	row, ok := t.Find(workspaceID, id)
	if !ok {
		return row, kernel.NotFound("%s %s not found", t.what, id)
	}
	return t.clone(row), nil
}

// Insert stores a copy of row; an id that exists already is an error, as the primary
// key makes it on the databases.
func (t *Table[T]) Insert(id string, row T) error {
	t.Lock()
	defer t.Unlock()
	return t.InsertLocked(id, row)
}

// InsertLocked is Insert for a caller holding the lock.
func (t *Table[T]) InsertLocked(id string, row T) error {
	if _, taken := t.Rows[id]; taken {
		return fmt.Errorf("insert %s: id %s exists", t.what, id)
	}
	t.Rows[id] = t.clone(row)
	return nil
}

// Update runs change on the workspace's stored row id. A missing row changes nothing
// and reports nothing, as an UPDATE that matches no row.
func (t *Table[T]) Update(workspaceID, id string, change func(stored T)) {
	t.Lock()
	defer t.Unlock()
	if row, ok := t.Find(workspaceID, id); ok {
		change(row)
	}
}

// Select returns copies of the rows keep accepts, in no order.
func (t *Table[T]) Select(keep func(T) bool) []T {
	t.RLock()
	defer t.RUnlock()
	var out []T
	for _, row := range t.Rows {
		if keep(row) {
			out = append(out, t.clone(row))
		}
	}
	return out
}

// Page returns one keyset page of the rows keep accepts, in the order of at (newest
// first, as the databases' ORDER BY created_at DESC, id DESC).
func (t *Table[T]) Page(keep func(T) bool, page platform.PageRequest, at func(T) platform.Position) platform.Page[T] {
	return platform.SeekPage(t.Select(keep), page, at)
}

// Earliest folds the instants of every row, any workspace: the twins' "since when do
// your facts count".
func (t *Table[T]) Earliest(instants func(row T, consider func(time.Time))) (time.Time, bool, error) {
	t.RLock()
	defer t.RUnlock()
	var first platform.Earliest
	for _, row := range t.Rows {
		instants(row, first.Consider)
	}
	return first.At, first.OK, nil
}
