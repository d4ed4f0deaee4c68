package tests

import (
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// wantOneCreated sends n idempotent creates at once (post(i) is request i) and fails
// unless exactly one answers 201 and the others 200, all with the same resource; it
// returns that resource's id.
func wantOneCreated(t *testing.T, n int, post func(i int) testenv.Response) string {
	t.Helper()
	statuses := make([]int, n)
	ids := make([]string, n)
	contracttest.Parallel(n, func(i int) error {
		resp := post(i)
		statuses[i] = resp.Status
		var v struct{ ID string }
		if resp.Status < 300 {
			resp.Decode(t, &v)
		}
		ids[i] = v.ID
		return nil
	})
	created := 0
	for i, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusOK:
		default:
			t.Fatalf("request %d: status %d", i, s)
		}
		if ids[i] != ids[0] {
			t.Fatalf("request %d got %s, request 0 got %s", i, ids[i], ids[0])
		}
	}
	if created != 1 {
		t.Fatalf("%d of %d racing requests created (201); want 1, the others 200", created, n)
	}
	return ids[0]
}
