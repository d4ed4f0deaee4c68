package tests

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/adapters/sql/workspaces"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/webhooks"
	domainworkspaces "github.com/creatorapi/creatorapi/domain/workspaces"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A transaction's fan-outs are written together before it commits (PostgreSQL) or at once
// (SQLite); either way an attempt rolled back to its savepoint takes its event's
// deliveries back (on PostgreSQL before they are written or told), and the leases are told with the writing transaction, so that what
// they register with AfterCommit runs after the commit only.
func TestWebhookFanOutHeldToTheCommit(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, url string) {
		ctx := context.Background()
		db := testenv.MigratedDB(t, url)
		box, err := secrets.NewBox(bytes.Repeat([]byte{7}, 32))
		if err != nil {
			t.Fatal(err)
		}
		ws := "ws_fanbatch"
		if err := workspaces.NewStore(db).Add(ctx, &domainworkspaces.Workspace{ID: ws, Name: ws, OwnerEmail: "o@example.com", CreatedAt: testenv.Epoch}); err != nil {
			t.Fatal(err)
		}
		subs := sqlwebhooks.NewSubscriptions(db, box)
		for _, name := range []string{"a", "b"} {
			secret, err := webhooks.GenerateSecret(rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			s, err := webhooks.NewSubscription("whk_"+name, ws, "https://receiver.example.com/"+name, []string{"order.paid"}, secret, false, testenv.Epoch)
			if err != nil {
				t.Fatal(err)
			}
			if err := subs.Add(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		dispatch := sqlwebhooks.NewDispatch(db, box)
		n := 0
		newID := func() string { n++; return fmt.Sprintf("evd_fanbatch_%d", n) }
		told := map[string]int{}       // event: leases told
		committed := map[string]bool{} // event: its AfterCommit ran
		fan := func(ctx context.Context, event string) error {
			f := webhooks.Fan{WorkspaceID: ws, EventID: event, EventType: "order.paid", Payload: []byte(`{}`), At: testenv.Epoch,
				Token: "tok_" + event, Until: testenv.Epoch.Add(time.Minute)}
			return dispatch.FanOut(ctx, f, newID, func(ctx context.Context, leases []webhooks.Lease) {
				told[event] += len(leases)
				if !sqldb.AfterCommit(ctx, func() { committed[event] = true }) {
					t.Errorf("%s: written was told without the writing transaction", event)
				}
			})
		}
		count := func(ctx context.Context) int {
			var c int
			if err := db.Write(ctx).GetContext(ctx, &c, db.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE workspace_id = ?`), ws); err != nil {
				t.Fatal(err)
			}
			return c
		}
		err = db.WithinTx(ctx, func(ctx context.Context) error {
			if err := fan(ctx, "evt_1"); err != nil {
				return err
			}
			// An attempt rolled back to its savepoint, as the router does.
			if _, err := db.Write(ctx).ExecContext(ctx, "SAVEPOINT attempt"); err != nil {
				return err
			}
			mark := sqldb.DeferredMark(ctx)
			if err := fan(ctx, "evt_2"); err != nil {
				return err
			}
			sqldb.DeferredRollback(ctx, mark)
			if _, err := db.Write(ctx).ExecContext(ctx, "ROLLBACK TO SAVEPOINT attempt"); err != nil {
				return err
			}
			if err := fan(ctx, "evt_3"); err != nil {
				return err
			}
			if db.Dialect == sqldb.Postgres && (count(ctx) != 0 || len(told) != 0) {
				t.Errorf("PostgreSQL wrote %d deliveries and told %v before the commit; want them held", count(ctx), told)
			}
			if len(committed) != 0 {
				t.Errorf("after-commit hooks ran inside the transaction: %v", committed)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if told["evt_1"] != 2 || told["evt_3"] != 2 || !committed["evt_1"] || !committed["evt_3"] {
			t.Fatalf("told %v, committed %v; want 2 leases each of evt_1 and evt_3 after the commit", told, committed)
		}
		// PostgreSQL held evt_2 until its attempt was rolled back: never written, never told.
		// SQLite wrote it at once, in the savepoint (the router rolls an attempt back only
		// when its handler fails, and the fan-out's handler tells last).
		if db.Dialect == sqldb.Postgres && (told["evt_2"] != 0 || committed["evt_2"]) {
			t.Fatalf("told %v, committed %v; want nothing of evt_2, rolled back", told, committed)
		}
		if c := count(ctx); c != 4 {
			t.Fatalf("%d deliveries; want 4 (evt_2's attempt was rolled back)", c)
		}
		// A replay of the batch writes nothing and tells no lease.
		told = map[string]int{}
		if err := db.WithinTx(ctx, func(ctx context.Context) error {
			for _, ev := range []string{"evt_1", "evt_3"} {
				if err := fan(ctx, ev); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if told["evt_1"] != 0 || told["evt_3"] != 0 || count(ctx) != 4 {
			t.Fatalf("a replay told %v and left %d deliveries; want none told, 4", told, count(ctx))
		}
	})
}
