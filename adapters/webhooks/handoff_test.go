package webhooks

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// The fan-out's leases reach the dispatcher only after the commit that wrote their rows:
// never after a rollback, and only while a dispatcher runs and few leases wait for room.
func TestHandoffFollowsTheCommitAndItsBound(t *testing.T) {
	ctx := context.Background()
	db, err := sqldb.Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "h.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sig := NewSignal()
	w := CommitWaker{Signal: sig}
	lease := func(id string) []webhooks.Lease {
		return []webhooks.Lease{{Delivery: &webhooks.Delivery{ID: id}, Endpoint: &webhooks.Subscription{ID: "whk_1"}, Token: "tok"}}
	}
	all := func(webhooks.Lease) bool { return true }

	if w.Leasing() {
		t.Fatal("leasing without a running dispatcher")
	}
	sig.leasing.Store(true)
	if !w.Leasing() {
		t.Fatal("not leasing with a running dispatcher")
	}

	rollback := errors.New("roll back")
	err = db.WithinTx(ctx, func(ctx context.Context) error {
		w.Hand(ctx, lease("evd_rolled_back"))
		return rollback
	})
	if !errors.Is(err, rollback) || len(sig.takeHanded(all)) != 0 {
		t.Fatalf("a rolled-back fan-out handed leases (err %v)", err)
	}

	err = db.WithinTx(ctx, func(ctx context.Context) error {
		w.Hand(ctx, lease("evd_committed"))
		if n := len(sig.takeHanded(all)); n != 0 {
			t.Errorf("%d leases handed before the commit", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-sig.room:
	default:
		t.Error("the handoff did not wake the dispatcher")
	}
	if got := sig.takeHanded(all); len(got) != 1 || got[0].Delivery.ID != "evd_committed" {
		t.Fatalf("handed after the commit: %v", got)
	}

	// A gated endpoint's delivery is written unleased (no token): never handed, a claim
	// takes it, so the dispatcher is woken to claim.
	w.Hand(ctx, []webhooks.Lease{{Delivery: &webhooks.Delivery{ID: "evd_gated"}, Endpoint: &webhooks.Subscription{ID: "whk_2"}}})
	if got := sig.takeHanded(all); len(got) != 0 {
		t.Fatalf("an unleased delivery was handed: %v", got)
	}
	select {
	case <-sig.C():
	default:
		t.Error("an unleased delivery did not wake a claim")
	}

	for i := 0; i < maxHanded; i++ {
		w.Hand(ctx, lease("evd_waiting"))
	}
	if w.Leasing() {
		t.Fatalf("still leasing with %d leases waiting for room", maxHanded)
	}
	kept := sig.takeHanded(func(l webhooks.Lease) bool { return false })
	if len(kept) != 0 || !func() bool { sig.mu.Lock(); defer sig.mu.Unlock(); return len(sig.handed) == maxHanded }() {
		t.Fatal("leases left out by takeHanded were lost")
	}
}
