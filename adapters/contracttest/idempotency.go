package contracttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/idempotency"
	"github.com/creatorapi/creatorapi/application/platform"
)

// IdempotencyAdapters is one implementation of the Idempotency-Key records with the
// transactions it joins.
type IdempotencyAdapters struct {
	Store        idempotency.Store
	Tx           platform.Transactor
	NewWorkspace func(t *testing.T) string
}

// IdempotencyFactory opens a store once per suite.
type IdempotencyFactory func(t *testing.T) IdempotencyAdapters

// IdempotencyStore is the contract of idempotency.Store: a claim is decided by the
// database (racing claims: one wins, the others wait for its transaction), a rolled-back
// claim leaves the key free, records past the window are taken over and purged.
func IdempotencyStore(t *testing.T, open IdempotencyFactory) {
	a := open(t)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	fp := func(s string) []byte { return []byte("fingerprint of " + s) }
	answer := idempotency.Answer{Status: 201, ContentType: "application/json", Body: []byte(`{"id":"stu_1","name":"Ada \u00e9"}`)}
	claim := func(k idempotency.Key, f []byte, now time.Time) (claimed bool) {
		t.Helper()
		if err := a.Tx.WithinTx(ctx, func(ctx context.Context) error {
			var err error
			if claimed, err = a.Store.Claim(ctx, k, f, now, now.Add(-idempotency.Window)); err != nil || !claimed {
				return err
			}
			return a.Store.Complete(ctx, k, answer)
		}); err != nil {
			t.Fatal(err)
		}
		return claimed
	}
	get := func(k idempotency.Key) idempotency.Record {
		t.Helper()
		var r idempotency.Record
		if err := a.Tx.WithinTx(ctx, func(ctx context.Context) (err error) { r, err = a.Store.Get(ctx, k); return err }); err != nil {
			t.Fatal(err)
		}
		return r
	}

	t.Run("a claim stores the answer byte for byte; the key is then taken", func(t *testing.T) {
		k := idempotency.Key{WorkspaceID: a.NewWorkspace(t), KeyID: "key_a", Value: "v1"}
		if !claim(k, fp("first"), t0) {
			t.Fatal("a new key was not claimed")
		}
		r := get(k)
		if !bytes.Equal(r.Fingerprint, fp("first")) || r.Status != 201 || r.ContentType != answer.ContentType || !bytes.Equal(r.Body, answer.Body) || !r.CreatedAt.Equal(t0) {
			t.Fatalf("record %+v (body %s)", r, r.Body)
		}
		if claim(k, fp("second"), t0.Add(idempotency.Window-time.Second)) {
			t.Fatal("a live key was claimed again")
		}
		if r := get(k); !bytes.Equal(r.Fingerprint, fp("first")) {
			t.Fatal("a refused claim changed the record")
		}
		for _, other := range []idempotency.Key{{WorkspaceID: k.WorkspaceID, KeyID: "key_b", Value: "v1"},
			{WorkspaceID: a.NewWorkspace(t), KeyID: "key_a", Value: "v1"}, {WorkspaceID: k.WorkspaceID, KeyID: "key_a", Value: "V1"}} {
			if !claim(other, fp("other"), t0) {
				t.Fatalf("%+v was not claimed: records are per workspace, API key and exact value", other)
			}
		}
	})

	t.Run("a rolled-back claim leaves the key free; a released one too", func(t *testing.T) {
		k := idempotency.Key{WorkspaceID: a.NewWorkspace(t), KeyID: "key_a", Value: "v"}
		boom := errors.New("the request failed")
		err := a.Tx.WithinTx(ctx, func(ctx context.Context) error {
			if _, err := a.Store.Claim(ctx, k, fp("x"), t0, t0.Add(-idempotency.Window)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if err := a.Tx.WithinTx(ctx, func(ctx context.Context) error {
			if ok, err := a.Store.Claim(ctx, k, fp("x"), t0, t0.Add(-idempotency.Window)); err != nil || !ok {
				return fmt.Errorf("claim after a rollback: %v, %w", ok, err)
			}
			return a.Store.Release(ctx, k)
		}); err != nil {
			t.Fatal(err)
		}
		if !claim(k, fp("y"), t0) {
			t.Fatal("a released key was not free")
		}
	})

	t.Run("a concurrent claim waits for the claiming transaction", func(t *testing.T) {
		for _, commit := range []bool{true, false} {
			k := idempotency.Key{WorkspaceID: a.NewWorkspace(t), KeyID: "key_a", Value: fmt.Sprint("race-", commit)}
			claimedFirst, release, firstDone := make(chan struct{}), make(chan struct{}), make(chan error, 1)
			go func() {
				firstDone <- a.Tx.WithinTx(ctx, func(ctx context.Context) error {
					if ok, err := a.Store.Claim(ctx, k, fp("first"), t0, t0.Add(-idempotency.Window)); err != nil || !ok {
						return fmt.Errorf("first claim: %v, %w", ok, err)
					}
					close(claimedFirst)
					<-release
					if !commit {
						return errors.New("rolled back")
					}
					return a.Store.Complete(ctx, k, answer)
				})
			}()
			<-claimedFirst
			second := make(chan bool, 1)
			go func() { second <- claim(k, fp("first"), t0) }()
			select {
			case got := <-second:
				t.Fatalf("the second claim answered %v while the first transaction was open", got)
			case <-time.After(300 * time.Millisecond):
			}
			close(release)
			if err := <-firstDone; commit && err != nil {
				t.Fatal(err)
			}
			if got := <-second; got == commit {
				t.Fatalf("after the first transaction %s, the second claim answered %v", map[bool]string{true: "committed", false: "rolled back"}[commit], got)
			}
			if r := get(k); r.Status != 201 || !bytes.Equal(r.Body, answer.Body) {
				t.Fatalf("record %+v", r)
			}
		}
	})

	t.Run("racing claims: one wins, every other sees its committed answer", func(t *testing.T) {
		k := idempotency.Key{WorkspaceID: a.NewWorkspace(t), KeyID: "key_a", Value: "race"}
		won := make([]bool, 12)
		errs := Parallel(len(won), func(i int) error {
			return a.Tx.WithinTx(ctx, func(ctx context.Context) error {
				ok, err := a.Store.Claim(ctx, k, fp("same"), t0, t0.Add(-idempotency.Window))
				if err != nil || ok {
					won[i] = ok
					if err == nil {
						err = a.Store.Complete(ctx, k, answer)
					}
					return err
				}
				r, err := a.Store.Get(ctx, k)
				if err == nil && (r.Status != 201 || !bytes.Equal(r.Body, answer.Body)) {
					err = fmt.Errorf("a loser read %+v", r)
				}
				return err
			})
		})
		winners := 0
		for i, err := range errs {
			if err != nil {
				t.Fatalf("claim %d: %v", i, err)
			}
			if won[i] {
				winners++
			}
		}
		if winners != 1 {
			t.Fatalf("%d winners, want 1", winners)
		}
	})

	t.Run("a record past the window is taken over; the purge deletes only those, in batches", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		old := idempotency.Key{WorkspaceID: ws, KeyID: "key_a", Value: "old"}
		claim(old, fp("old"), t0)
		later := t0.Add(idempotency.Window + time.Second)
		if !claim(old, fp("new"), later) {
			t.Fatal("an expired record was not taken over")
		}
		if r := get(old); !bytes.Equal(r.Fingerprint, fp("new")) || !r.CreatedAt.Equal(later) {
			t.Fatalf("taken-over record %+v", r)
		}
		for i := range 5 {
			claim(idempotency.Key{WorkspaceID: ws, KeyID: "key_p", Value: fmt.Sprint(i)}, fp("p"), t0.Add(time.Duration(i)*time.Second))
		}
		purge := func(cutoff time.Time, limit int) int {
			var n int
			if err := a.Tx.WithinTx(ctx, func(ctx context.Context) (err error) { n, err = a.Store.Purge(ctx, cutoff, limit); return err }); err != nil {
				t.Fatal(err)
			}
			return n
		}
		// Other suites' records are older than t0+3s too: count only this workspace's.
		cutoff := t0.Add(3 * time.Second)
		for purge(cutoff, 2) == 2 {
		}
		for i := range 5 {
			k := idempotency.Key{WorkspaceID: ws, KeyID: "key_p", Value: fmt.Sprint(i)}
			if kept := !claim(k, fp("p"), later.Add(-idempotency.Window)); kept != (i >= 3) {
				t.Fatalf("record %d (created %ds after t0) kept %v, cutoff 3s", i, i, kept)
			}
		}
		if claim(old, fp("new"), later) {
			t.Fatal("the purge deleted a young record")
		}
	})
}
