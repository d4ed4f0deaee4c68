package contracttest

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// KeyAdapters is one implementation of the keys module's ports, over one store.
type KeyAdapters struct {
	Repo     keys.Repository
	Pages    query.KeyPages
	Usage    query.UsageStore
	Requests query.RequestCounts
	// NewWorkspace returns the id of a fresh workspace the store accepts.
	NewWorkspace func(t *testing.T) string
}

// KeyFactory opens a store once per suite; each case works in its own workspace.
type KeyFactory func(t *testing.T) KeyAdapters

// newKey is a key built by the domain with a fresh token; its id is unique per case.
func newKey(t *testing.T, ws, name string, minute int) *keys.Key {
	t.Helper()
	token, err := keys.GenerateToken(rand.Reader)
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	k, err := keys.New(fmt.Sprintf("key_%s_%s", ws, name), ws, name, []string{"read:courses", "read:orders"}, keys.Quota{}, token, at(minute))
	if err != nil {
		t.Fatalf("new key: %v", err)
	}
	return k
}

func mustAddKey(t *testing.T, a KeyAdapters, k *keys.Key) {
	t.Helper()
	if err := a.Repo.Add(context.Background(), k); err != nil {
		t.Fatalf("add %s: %v", k.ID, err)
	}
}

func keyIDs(list []*keys.Key) []string {
	out := make([]string, len(list))
	for i, k := range list {
		out[i] = k.ID
	}
	return out
}

// KeyRepository is the contract of keys.Repository and query.KeyPages.
func KeyRepository(t *testing.T, open KeyFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a new key reads back as written, by id and by lookup", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		k := newKey(t, ws, "reader", 0)
		mustAddKey(t, a, k)
		got, err := a.Repo.Get(ctx, ws, k.ID)
		if err != nil {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, k)
		}
		mustMatch(t, "Get", k, got)
		got, err = a.Repo.FindByLookup(ctx, k.Lookup)
		if err != nil {
			t.Fatalf("FindByLookup = %+v, %v; want %+v", got, err, k)
		}
		mustMatch(t, "FindByLookup", k, got)
	})

	t.Run("another workspace's key is not found, nor an unknown lookup", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		k := newKey(t, ws, "hidden", 0)
		mustAddKey(t, a, k)
		_, err := a.Repo.Get(ctx, other, k.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.FindByLookup(ctx, "nosuchlookup")
		wantKind(t, err, kernel.KindNotFound, "")
		if list, err := a.Repo.List(ctx, other); err != nil || len(list) != 0 {
			t.Fatalf("List of another workspace = %v, %v", keyIDs(list), err)
		}
	})

	t.Run("a lookup is unique, concurrently too: exactly one of racing adds lands", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		first := newKey(t, ws, "first", 0)
		mustAddKey(t, a, first)
		again := newKey(t, ws, "again", 0)
		again.Lookup = first.Lookup
		if err := a.Repo.Add(ctx, again); err == nil {
			t.Fatal("a second key with the same lookup was added")
		}
		const n = 8
		racing := make([]*keys.Key, n)
		for i := range racing {
			racing[i] = newKey(t, ws, fmt.Sprintf("race%d", i), 1)
			racing[i].Lookup = racing[0].Lookup
		}
		wantOneWinner(t, "adds of one lookup", Parallel(n, func(i int) error { return a.Repo.Add(ctx, racing[i]) }))
		if list, err := a.Repo.List(ctx, ws); err != nil || len(list) != 2 {
			t.Fatalf("List = %v, %v; want the first key and one winner", keyIDs(list), err)
		}
	})

	t.Run("concurrent creation of distinct keys: all land, listed and paged newest first", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		const n = 9
		created := make([]*keys.Key, n)
		for i := range created {
			created[i] = newKey(t, ws, fmt.Sprintf("k%d", i), i/3) // ties of three per instant
		}
		for i, err := range Parallel(n, func(i int) error { return a.Repo.Add(ctx, created[i]) }) {
			if err != nil {
				t.Fatalf("add %d: %v", i, err)
			}
		}
		// created_at DESC, id DESC: the last minute first, ties by id descending.
		var want []string
		for m := 2; m >= 0; m-- {
			for i := 2; i >= 0; i-- {
				want = append(want, created[m*3+i].ID)
			}
		}
		list, err := a.Repo.List(ctx, ws)
		if err != nil {
			t.Fatalf("List = %v, %v; want %v", keyIDs(list), err, want)
		}
		mustMatch(t, "List", want, keyIDs(list))
		var paged []string
		var after *platform.Position
		for {
			page, err := a.Pages.Page(ctx, ws, after, 4)
			if err != nil {
				t.Fatalf("page: %v", err)
			}
			paged = append(paged, keyIDs(page)...)
			if len(page) < 4 {
				break
			}
			last := page[len(page)-1]
			after = &platform.Position{CreatedAt: last.CreatedAt, ID: last.ID}
		}
		mustMatch(t, "pages", want, paged)
	})

	t.Run("revocation is stored once; the earliest time is kept, racing calls too", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		k := newKey(t, ws, "revoked", 0)
		mustAddKey(t, a, k)
		foreign := *k
		foreign.WorkspaceID = other
		foreign.Revoke(at(1))
		if revoked, err := a.Repo.SaveRevocation(ctx, &foreign); err != nil || revoked {
			t.Fatalf("SaveRevocation from another workspace = %v, %v; want false", revoked, err)
		}
		won := oneWinner(t, 8, func(i int) (bool, error) {
			c := *k
			c.Revoke(at(10 + i))
			return a.Repo.SaveRevocation(ctx, &c)
		})
		got, err := a.Repo.Get(ctx, ws, k.ID)
		if err != nil || got.Active() || !got.RevokedAt.Equal(at(10+won)) {
			t.Fatalf("after racing revocations: %+v, %v; want revoked at %v", got, err, at(10+won))
		}
		later := *got
		later.RevokedAt = nil
		later.Revoke(at(50))
		if again, err := a.Repo.SaveRevocation(ctx, &later); err != nil || again {
			t.Fatalf("revoking a revoked key = %v, %v; want false", again, err)
		}
		if got, _ := a.Repo.Get(ctx, ws, k.ID); !got.RevokedAt.Equal(at(10 + won)) {
			t.Fatalf("a later revocation moved the time to %v", got.RevokedAt)
		}
	})

	t.Run("counts: active keys and those due for rotation", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		old, young, gone := newKey(t, ws, "old", 0), newKey(t, ws, "young", 100), newKey(t, ws, "gone", 0)
		for _, k := range []*keys.Key{old, young, gone} {
			mustAddKey(t, a, k)
		}
		gone.Revoke(at(5))
		if _, err := a.Repo.SaveRevocation(ctx, gone); err != nil {
			t.Fatalf("revoke: %v", err)
		}
		active, due, err := a.Pages.Count(ctx, ws, at(50))
		if err != nil || active != 2 || due != 1 {
			t.Fatalf("Count = %d active, %d due, %v; want 2, 1", active, due, err)
		}
	})
}

// KeyUsage is the contract of query.UsageStore and query.RequestCounts.
func KeyUsage(t *testing.T, open KeyFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("last use moves forward only, racing flushes keep the latest", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		k := newKey(t, ws, "used", 0)
		mustAddKey(t, a, k)
		for i, err := range Parallel(8, func(i int) error {
			return a.Usage.TouchLastUsed(ctx, map[string]time.Time{k.ID: at(10 + i), "key_unknown": at(1)})
		}) {
			if err != nil {
				t.Fatalf("touch %d: %v", i, err)
			}
		}
		if err := a.Usage.TouchLastUsed(ctx, map[string]time.Time{k.ID: at(3)}); err != nil {
			t.Fatalf("touch earlier: %v", err)
		}
		got, err := a.Repo.Get(ctx, ws, k.ID)
		if err != nil || got.LastUsedAt == nil || !got.LastUsedAt.Equal(at(17)) {
			t.Fatalf("last used = %v, %v; want %v", got.LastUsedAt, err, at(17))
		}
	})

	t.Run("request counts add up per key and day, racing flushes too", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		alpha, beta, foreign := newKey(t, ws, "alpha", 0), newKey(t, ws, "beta", 0), newKey(t, other, "alpha", 0)
		for _, k := range []*keys.Key{beta, alpha, foreign} {
			mustAddKey(t, a, k)
		}
		for i, err := range Parallel(8, func(int) error {
			return a.Usage.AddRequests(ctx, map[query.KeyDay]int64{
				{KeyID: alpha.ID, Day: "2026-11-21"}: 2, {KeyID: alpha.ID, Day: "2026-11-22"}: 1,
				{KeyID: beta.ID, Day: "2026-11-21"}: 5, {KeyID: foreign.ID, Day: "2026-11-21"}: 7,
				{KeyID: "key_unknown", Day: "2026-11-21"}: 9,
			})
		}) {
			if err != nil {
				t.Fatalf("add %d: %v", i, err)
			}
		}
		if err := a.Usage.AddRequests(ctx, map[query.KeyDay]int64{{KeyID: beta.ID, Day: "2026-11-23"}: 4}); err != nil {
			t.Fatalf("add: %v", err)
		}
		got, err := a.Requests.Daily(ctx, ws, "2026-11-21", "2026-11-22")
		want := []query.RequestDay{
			{KeyID: alpha.ID, Name: "alpha", Day: "2026-11-21", Requests: 16},
			{KeyID: alpha.ID, Name: "alpha", Day: "2026-11-22", Requests: 8},
			{KeyID: beta.ID, Name: "beta", Day: "2026-11-21", Requests: 40},
		}
		if err != nil {
			t.Fatalf("Daily = %+v, %v; want %+v", got, err, want)
		}
		mustMatch(t, "Daily", want, got)
	})
}
