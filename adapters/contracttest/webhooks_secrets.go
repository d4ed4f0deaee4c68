package contracttest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"reflect"
	"slices"
	"sort"
	"testing"

	appwebhooks "github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Sealer seals bytes bound to an owner (secrets.Box): the keys of a sealed-secrets suite.
type Sealer interface {
	Seal(owner string, plain []byte) ([]byte, error)
	Open(owner string, sealed []byte) ([]byte, error)
}

// SealedSecretAdapters is one implementation of the webhooks module's port to the master
// key, over one store that no other suite writes (ResealAll reaches every endpoint).
type SealedSecretAdapters struct {
	Subs    webhooks.Repository // seals with Key
	Secrets appwebhooks.SealedSecrets
	// Key is the sealer Subs seals and opens with; Other is a second key to move to.
	Key, Other Sealer
	// NewWorkspace returns the id of a fresh workspace the store accepts.
	NewWorkspace func(t *testing.T) string
}

// SealedSecretFactory opens the store of one suite run.
type SealedSecretFactory func(t *testing.T) SealedSecretAdapters

// moveKey returns a reseal that opens with from and seals with to; refuse(owner, n) makes
// the n-th call for owner (0: current, 1: previous) fail as a wrong key would. It records
// the owners in call order.
func moveKey(from, to Sealer, refuse func(owner string, n int) bool) (func(string, []byte) ([]byte, error), *[]string) {
	var calls []string
	return func(owner string, sealed []byte) ([]byte, error) {
		n := 0
		for _, c := range calls {
			if c == owner {
				n++
			}
		}
		calls = append(calls, owner)
		if refuse != nil && refuse(owner, n) {
			return nil, errors.New("refused")
		}
		plain, err := from.Open(owner, sealed)
		if err != nil {
			return nil, err
		}
		return to.Seal(owner, plain)
	}, &calls
}

// opensWith is an OpensAny probe that opens with key and records the owners it saw.
func opensWith(key Sealer, seen *[]string) func(string, []byte) bool {
	return func(owner string, sealed []byte) bool {
		*seen = append(*seen, owner)
		_, err := key.Open(owner, sealed)
		return err == nil
	}
}

// WebhookSealedSecrets is the contract of application/webhooks.SealedSecrets: what the
// master key's rotation relies on. The cases share one store and build on each other
// (every endpoint the suite adds is in `all`, and each case leaves them under Key).
func WebhookSealedSecrets(t *testing.T, open SealedSecretFactory) {
	a := open(t)
	ctx := context.Background()
	all := map[string]*webhooks.Subscription{} // every endpoint of the store, as last written
	add := func(t *testing.T, s *webhooks.Subscription) {
		t.Helper()
		if err := a.Subs.Add(ctx, s); err != nil {
			t.Fatalf("add endpoint %s: %v", s.ID, err)
		}
		all[s.ID] = s
	}
	ids := func() []string {
		out := make([]string, 0, len(all))
		for id := range all {
			out = append(out, id)
		}
		sort.Strings(out)
		return out
	}
	// readsBack checks that each endpoint of ids reads back as written (its secrets open
	// under Key), and each other one in all reads SecretUnreadable with no secret.
	readsBack := func(t *testing.T, ids ...string) {
		t.Helper()
		for id, want := range all {
			got, err := a.Subs.Get(ctx, want.WorkspaceID, id)
			if err != nil {
				t.Fatalf("Get %s: %v", id, err)
			}
			if slices.Contains(ids, id) {
				mustMatch(t, "value", want, got)
				continue
			}
			if !got.SecretUnreadable || got.Secret != (webhooks.Secret{}) || got.Previous != nil {
				t.Fatalf("%s moved to another key but reads %+v (want SecretUnreadable, no secret)", id, got)
			}
		}
	}
	reseal := func(t *testing.T, fn func(string, []byte) ([]byte, error), wantResealed int, wantUnreadable ...string) {
		t.Helper()
		resealed, unreadable, err := a.Secrets.ResealAll(ctx, fn)
		if wantUnreadable == nil {
			wantUnreadable = []string{}
		}
		if err != nil || resealed != wantResealed || !reflect.DeepEqual(unreadable, wantUnreadable) {
			t.Fatalf("ResealAll = %d, %v, %v; want %d, %v", resealed, unreadable, err, wantResealed, wantUnreadable)
		}
	}

	t.Run("with no endpoint any key opens and nothing is resealed", func(t *testing.T) {
		var seen []string
		if ok, err := a.Secrets.OpensAny(ctx, 5, func(string, []byte) bool { seen = append(seen, "?"); return false }); err != nil || !ok {
			t.Fatalf("OpensAny on no endpoint = %v, %v; want true", ok, err)
		}
		fn, calls := moveKey(a.Key, a.Other, nil)
		reseal(t, fn, 0)
		if len(seen) > 0 || len(*calls) > 0 {
			t.Fatalf("probed %v and resealed %v with no endpoint", seen, *calls)
		}
	})

	t.Run("OpensAny probes the newest n endpoints of every workspace, newest first, with their sealed current secret", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		add(t, newEndpoint(t, ws, "a", 1))
		add(t, newEndpoint(t, other, "b", 2))
		add(t, newEndpoint(t, ws, "c", 3))
		add(t, newEndpoint(t, other, "d", 3)) // same instant as c: ties by id, descending
		newest := []string{all["whk_"+ws+"_c"].ID, all["whk_"+other+"_d"].ID}
		if newest[0] < newest[1] {
			newest[0], newest[1] = newest[1], newest[0]
		}
		newest = append(newest, "whk_"+other+"_b", "whk_"+ws+"_a")

		var seen []string
		if ok, err := a.Secrets.OpensAny(ctx, 3, opensWith(a.Other, &seen)); err != nil || ok {
			t.Fatalf("OpensAny with another key = %v, %v; want false", ok, err)
		}
		mustMatch(t, "OpensAny(3) probed", newest[:3], seen)
		seen = nil
		if ok, err := a.Secrets.OpensAny(ctx, 1, opensWith(a.Key, &seen)); err != nil || !ok || !reflect.DeepEqual(seen, newest[:1]) {
			t.Fatalf("OpensAny(1) with the key = %v, %v after %v; want true after %v", ok, err, seen, newest[:1])
		}
		oldest := newest[3]
		probe := func(n int) bool {
			ok, err := a.Secrets.OpensAny(ctx, n, func(owner string, sealed []byte) bool {
				plain, err := a.Key.Open(owner, sealed)
				if err == nil && bytes.Contains(sealed, []byte(all[owner].Secret.String())) {
					t.Fatalf("the sealed secret of %s holds the secret in the clear", owner)
				}
				return err == nil && owner == oldest && string(plain) == all[owner].Secret.String()
			})
			if err != nil {
				t.Fatalf("OpensAny(%d): %v", n, err)
			}
			return ok
		}
		if probe(3) || !probe(4) || !probe(10) {
			t.Fatalf("only the oldest opens: OpensAny(3) must be false, OpensAny(4) and (10) true: %v %v %v", probe(3), probe(4), probe(10))
		}
	})

	t.Run("ResealAll moves every endpoint of every workspace, current and previous secret, in id order", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		rotated := newEndpoint(t, ws, "rotated", 5)
		add(t, rotated)
		next, err := webhooks.GenerateSecret(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		rotated.Rotate(next, at(6))
		if err := a.Subs.Save(ctx, rotated); err != nil {
			t.Fatalf("save the rotated endpoint: %v", err)
		}

		fn, calls := moveKey(a.Key, a.Other, nil)
		reseal(t, fn, len(all))
		want := []string{}
		for _, id := range ids() {
			want = append(want, id)
			if all[id].Previous != nil {
				want = append(want, id) // its previous secret, right after its current one
			}
		}
		mustMatch(t, "resealed", want, *calls)
		readsBack(t) // Key opens none of them now
		var seen []string
		if ok, err := a.Secrets.OpensAny(ctx, len(all), opensWith(a.Key, &seen)); err != nil || ok {
			t.Fatalf("OpensAny with the old key after the move = %v, %v; want false", ok, err)
		}
		if ok, err := a.Secrets.OpensAny(ctx, 1, opensWith(a.Other, &seen)); err != nil || !ok {
			t.Fatalf("OpensAny with the new key after the move = %v, %v; want true", ok, err)
		}

		back, _ := moveKey(a.Other, a.Key, nil)
		reseal(t, back, len(all))
		readsBack(t, ids()...) // the same secrets, previous one included, under Key again
	})

	t.Run("an endpoint either of whose secrets does not open keeps both and is listed; the others move", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		add(t, newEndpoint(t, ws, "fine", 7))
		badCurrent := newEndpoint(t, other, "bad-current", 8)
		add(t, badCurrent)
		var badPrevious *webhooks.Subscription
		for _, s := range all {
			if s.Previous != nil {
				badPrevious = s
			}
		}
		if badPrevious == nil {
			t.Fatal("no endpoint with a previous secret (the case before adds one)")
		}
		bad := []string{badCurrent.ID, badPrevious.ID}
		sort.Strings(bad)
		fn, _ := moveKey(a.Key, a.Other, func(owner string, n int) bool {
			return owner == badCurrent.ID && n == 0 || owner == badPrevious.ID && n == 1
		})
		reseal(t, fn, len(all)-2, bad...)
		readsBack(t, bad...) // both kept their bytes: they still open under Key, previous included

		// A write of an endpoint read as unreadable keeps its sealed bytes (the right key
		// may come back); the listed ones, still under Key, stay out of the way back.
		moved := all["whk_"+ws+"_fine"]
		got, err := a.Subs.Get(ctx, ws, moved.ID)
		if err != nil || !got.SecretUnreadable {
			t.Fatalf("Get of a moved endpoint = %+v, %v; want SecretUnreadable", got, err)
		}
		got.Disable(webhooks.ByOperator, at(9))
		if err := a.Subs.Save(ctx, got); err != nil {
			t.Fatalf("save an unreadable endpoint: %v", err)
		}
		moved.Disable(webhooks.ByOperator, at(9))

		back, _ := moveKey(a.Other, a.Key, nil)
		reseal(t, back, len(all)-2, bad...) // Other opens neither of the two kept ones
		readsBack(t, ids()...)
	})
}
