package tests

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
// deliveries back (on PostgreSQL before they are written or told), and the leases are
// told with the writing transaction, so that what they register with AfterCommit runs
// after the commit only. Each behaviour is a subtest on one migrated database, with
// events of its own.
func TestWebhookFanOutHeldToTheCommit(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, url string) {
		f := newFanOutBatch(t, url)
		ctx := context.Background()

		t.Run("fan-outs are held to the commit, then written and told", func(t *testing.T) {
			err := f.db.WithinTx(ctx, func(ctx context.Context) error {
				for _, ev := range []string{"evt_held_1", "evt_held_2"} {
					if err := f.fan(ctx, ev); err != nil {
						return err
					}
				}
				if f.db.Dialect == sqldb.Postgres {
					f.expect(t, ctx, "before the commit (PostgreSQL holds them)", fanState{Told: map[string]int{}, Rows: map[string]int{"evt_held_1": 0, "evt_held_2": 0}})
				}
				if c := f.committedOf("evt_held_1", "evt_held_2"); len(c) != 0 {
					t.Errorf("after-commit hooks ran inside the transaction: %v", c)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			f.expect(t, ctx, "after the commit", fanState{
				Told:      map[string]int{"evt_held_1": 2, "evt_held_2": 2},
				Committed: map[string]bool{"evt_held_1": true, "evt_held_2": true},
				Rows:      map[string]int{"evt_held_1": 2, "evt_held_2": 2},
			})
		})

		t.Run("an attempt rolled back to its savepoint takes its deliveries back, the rest of the batch stays", func(t *testing.T) {
			err := f.db.WithinTx(ctx, func(ctx context.Context) error {
				if err := f.fan(ctx, "evt_kept_before"); err != nil {
					return err
				}
				// An attempt rolled back to its savepoint, as the router does.
				if _, err := f.db.Write(ctx).ExecContext(ctx, "SAVEPOINT attempt"); err != nil {
					return err
				}
				mark := sqldb.DeferredMark(ctx)
				if err := f.fan(ctx, "evt_rolled_back"); err != nil {
					return err
				}
				sqldb.DeferredRollback(ctx, mark)
				if _, err := f.db.Write(ctx).ExecContext(ctx, "ROLLBACK TO SAVEPOINT attempt"); err != nil {
					return err
				}
				return f.fan(ctx, "evt_kept_after")
			})
			if err != nil {
				t.Fatal(err)
			}
			want := fanState{
				Told:      map[string]int{"evt_kept_before": 2, "evt_kept_after": 2},
				Committed: map[string]bool{"evt_kept_before": true, "evt_kept_after": true},
				Rows:      map[string]int{"evt_kept_before": 2, "evt_kept_after": 2, "evt_rolled_back": 0},
			}
			// PostgreSQL held the rolled-back event until its attempt was undone: never
			// written, never told. SQLite wrote it at once, in the savepoint (the router
			// rolls an attempt back only when its handler fails, and the fan-out's handler
			// tells last): there only its rows, gone with the savepoint, are checked.
			if f.db.Dialect == sqldb.SQLite {
				delete(f.told, "evt_rolled_back")
				delete(f.committed, "evt_rolled_back")
			}
			f.expect(t, ctx, "after the commit", want)
		})

		t.Run("a replay writes nothing and tells no lease", func(t *testing.T) {
			if err := f.db.WithinTx(ctx, func(ctx context.Context) error { return f.fan(ctx, "evt_replayed") }); err != nil {
				t.Fatal(err)
			}
			f.expect(t, ctx, "after the first fan-out", fanState{
				Told:      map[string]int{"evt_replayed": 2},
				Committed: map[string]bool{"evt_replayed": true},
				Rows:      map[string]int{"evt_replayed": 2},
			})
			delete(f.told, "evt_replayed") // its after-commit mark stays: the replay's is not asserted
			if err := f.db.WithinTx(ctx, func(ctx context.Context) error { return f.fan(ctx, "evt_replayed") }); err != nil {
				t.Fatal(err)
			}
			f.expect(t, ctx, "after the replay", fanState{
				Told:      map[string]int{},
				Committed: map[string]bool{"evt_replayed": true},
				Rows:      map[string]int{"evt_replayed": 2},
			})
		})
	})
}

// fanOutBatch is a workspace with two endpoints for order.paid and a dispatcher, and what
// the fan-outs of each event told and ran after commit.
type fanOutBatch struct {
	t         *testing.T
	db        *sqldb.DB
	dispatch  *sqlwebhooks.Dispatch
	ws        string
	ids       int
	told      map[string]int  // event: leases told
	committed map[string]bool // event: its AfterCommit ran
}

func newFanOutBatch(t *testing.T, url string) *fanOutBatch {
	t.Helper()
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
	return &fanOutBatch{t: t, db: db, dispatch: sqlwebhooks.NewDispatch(db, box), ws: ws, told: map[string]int{}, committed: map[string]bool{}}
}

// fan fans event out in ctx's transaction, counting the leases told and registering an
// after-commit hook with the transaction that wrote them.
func (f *fanOutBatch) fan(ctx context.Context, event string) error {
	fan := webhooks.Fan{WorkspaceID: f.ws, EventID: event, EventType: "order.paid", Payload: []byte(`{}`), At: testenv.Epoch,
		Token: "tok_" + event, Until: testenv.Epoch.Add(time.Minute)}
	newID := func() string { f.ids++; return fmt.Sprintf("evd_fanbatch_%d", f.ids) }
	return f.dispatch.FanOut(ctx, fan, newID, func(ctx context.Context, leases []webhooks.Lease) {
		f.told[event] += len(leases)
		if !sqldb.AfterCommit(ctx, func() { f.committed[event] = true }) {
			f.t.Errorf("%s: written was told without the writing transaction", event)
		}
	})
}

// committedOf is the events among events whose after-commit hook ran.
func (f *fanOutBatch) committedOf(events ...string) []string {
	var ran []string
	for _, ev := range events {
		if f.committed[ev] {
			ran = append(ran, ev)
		}
	}
	return ran
}

// fanState is what the fan-outs of some events left: leases told (events told none are
// absent), after-commit hooks run and delivery rows, per event.
type fanState struct {
	Told      map[string]int
	Committed map[string]bool
	Rows      map[string]int
}

// expect compares the state of want's events (its Rows keys) with want; Told and
// Committed are compared whole (nil: nothing expected), over those events.
func (f *fanOutBatch) expect(t *testing.T, ctx context.Context, when string, want fanState) {
	t.Helper()
	got := fanState{Told: map[string]int{}, Rows: map[string]int{}}
	for ev := range want.Rows {
		if n := f.told[ev]; n > 0 { // told of no lease is told nothing
			got.Told[ev] = n
		}
		if f.committed[ev] {
			if got.Committed == nil {
				got.Committed = map[string]bool{}
			}
			got.Committed[ev] = true
		}
		var rows int
		q := f.db.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE workspace_id = ? AND event_id = ?`)
		if err := f.db.Write(ctx).GetContext(ctx, &rows, q, f.ws, ev); err != nil {
			t.Fatal(err)
		}
		got.Rows[ev] = rows
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s (-want +got):\n%s", when, d)
	}
}
