package platform

import (
	"context"
	"sort"
	"time"
)

// Position is a keyset position in a list ordered newest first, ties broken by id.
type Position struct {
	CreatedAt time.Time
	ID        string
}

// Before tells whether p comes before q in the list's order (newer, or as new with a
// greater id): the order of ORDER BY created_at DESC, id DESC.
func (p Position) Before(q Position) bool {
	if !p.CreatedAt.Equal(q.CreatedAt) {
		return p.CreatedAt.After(q.CreatedAt)
	}
	return p.ID > q.ID
}

// Page is one slice of a keyset-paginated list. Next is set when HasMore.
type Page[T any] struct {
	Items   []T
	HasMore bool
	Next    *Position
}

// PageRequest asks for Limit items strictly after After (nil: from the newest).
type PageRequest struct {
	After *Position
	Limit int
}

// Fetch is how many rows a keyset query asks for: one more than the page holds, so
// that the extra row tells whether another page follows.
func (r PageRequest) Fetch() int { return r.Limit + 1 }

// CutPage makes a page of the rows a keyset query returned for r (at most r.Fetch(),
// in list order): the extra row is dropped and sets HasMore, and Next is the position
// of the last row kept. SQL and in-memory list adapters share it.
func CutPage[R any](rows []R, r PageRequest, at func(R) Position) Page[R] {
	out := Page[R]{Items: rows}
	if len(rows) > r.Limit {
		out.Items = rows[:r.Limit]
		last := at(out.Items[len(out.Items)-1])
		out.HasMore, out.Next = true, &Position{CreatedAt: last.CreatedAt.UTC(), ID: last.ID}
	}
	if out.Items == nil {
		out.Items = []R{}
	}
	return out
}

// SeekPage is CutPage over items held in memory: it orders them newest first (ties by
// id, descending), skips those up to r.After, and cuts the page, exactly as the SQL
// adapters' ORDER BY created_at DESC, id DESC LIMIT r.Fetch() do.
func SeekPage[R any](items []R, r PageRequest, at func(R) Position) Page[R] {
	sorted := append([]R(nil), items...)
	sort.Slice(sorted, func(i, j int) bool { return at(sorted[i]).Before(at(sorted[j])) })
	var rows []R
	for _, it := range sorted {
		if r.After != nil && !r.After.Before(at(it)) {
			continue
		}
		if rows = append(rows, it); len(rows) == r.Fetch() {
			break
		}
	}
	return CutPage(rows, r, at)
}

// MapPage turns a page of rows into a page of views (one call for the whole page, so
// that views needing other data load it at once).
func MapPage[R, T any](p Page[R], views func([]R) ([]T, error)) (Page[T], error) {
	items, err := views(p.Items)
	if err != nil {
		return Page[T]{}, err
	}
	return Page[T]{Items: items, HasMore: p.HasMore, Next: p.Next}, nil
}

// ListPage is the body of a list query once its filters are checked: it reads one page
// of the workspace's rows matching f through list (a read model's List) and shows them
// with views.
func ListPage[F, R, T any](ctx context.Context, list func(context.Context, string, F, PageRequest) (Page[R], error),
	workspaceID string, f F, r PageRequest, views func([]R) ([]T, error)) (Page[T], error) {
	page, err := list(ctx, workspaceID, f, r)
	if err != nil {
		return Page[T]{}, err
	}
	return MapPage(page, views)
}
