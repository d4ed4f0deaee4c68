package contracttest

import (
	"testing"

	"github.com/creatorapi/creatorapi/application/platform"
)

// pageThrough reads a whole keyset list limit items at a time and returns the ids in
// the order listed; every page but the last is full and has a Next, the last has none.
func pageThrough[T any](t *testing.T, limit int, id func(T) string, list func(platform.PageRequest) (platform.Page[T], error)) []string {
	t.Helper()
	var ids []string
	req := platform.PageRequest{Limit: limit}
	for range 100 {
		p, err := list(req)
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		for _, it := range p.Items {
			ids = append(ids, id(it))
		}
		if !p.HasMore {
			if p.Next != nil {
				t.Fatalf("last page has a next position %v", p.Next)
			}
			return ids
		}
		if len(p.Items) != limit || p.Next == nil {
			t.Fatalf("a page with more after it holds %d items (limit %d), next %v", len(p.Items), limit, p.Next)
		}
		req.After = p.Next
	}
	t.Fatal("the list did not end after 100 pages")
	return nil
}
