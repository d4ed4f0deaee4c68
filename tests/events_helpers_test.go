package tests

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/clock"
	"github.com/creatorapi/creatorapi/adapters/eventbus/natstransport"
	"github.com/creatorapi/creatorapi/adapters/eventbus/outbox"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// eventsWait bounds every wait of the event suites: a broken build fails, never hangs.
const eventsWait = 20 * time.Second

// eventsApp is the service with its workers, which a test can stop and start again on
// the same database (testenv.Start cannot restart).
type eventsApp struct {
	cfg    compose.Config
	opts   []fx.Option
	app    *fx.App
	DB     *sqldb.DB
	Pub    platform.Publisher
	Tx     platform.Transactor
	Ledger *router.Ledger
	Router *router.Router
	Ret    *outbox.Retention
	Pos    *router.Positions
	Broker *natstransport.Broker // nil on the SQL transport
	Ops    *compose.Operations
}

func startEventsApp(t *testing.T, cfg compose.Config, opts ...fx.Option) *eventsApp {
	t.Helper()
	a := &eventsApp{cfg: cfg, opts: opts}
	a.start(t)
	t.Cleanup(func() { a.stop(t) })
	return a
}

func (a *eventsApp) start(t *testing.T) {
	t.Helper()
	all := append([]fx.Option{
		compose.Modules(a.cfg), compose.Workers(),
		fx.Replace(fx.Annotate(clock.NewManual(testenv.Epoch), fx.As(new(platform.Clock)))),
		fx.Populate(&a.DB, &a.Pub, &a.Tx, &a.Ledger, &a.Router, &a.Ret, &a.Pos, &a.Broker, &a.Ops),
	}, a.opts...)
	a.app = fx.New(all...)
	if err := a.app.Err(); err != nil {
		t.Fatalf("build service: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := a.app.Start(ctx); err != nil {
		t.Fatalf("start service: %v", err)
	}
}

func (a *eventsApp) stop(t *testing.T) {
	t.Helper()
	if a.app == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.app.Stop(ctx); err != nil {
		t.Errorf("stop service: %v", err)
	}
	a.app = nil
}

// withConsumer registers c in the event_consumers group.
func withConsumer(c events.Consumer) fx.Option {
	return fx.Provide(fx.Annotate(func() events.Consumer { return c }, fx.ResultTags(`group:"event_consumers"`)))
}

// withRouterConfig adjusts the router's settings.
func withRouterConfig(fn func(*router.Config)) fx.Option {
	return fx.Decorate(func(c router.Config) router.Config { fn(&c); return c })
}

// publish commits n events of type typ in one transaction and returns them.
func (a *eventsApp) publish(t testing.TB, n int, label string) {
	t.Helper()
	evs := make([]events.Event, n)
	for i := range evs {
		evs[i] = events.New(events.StudentCreated, "org_test", map[string]string{"label": fmt.Sprintf("%s-%d", label, i)})
	}
	if err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error { return a.Pub.Publish(ctx, evs...) }); err != nil {
		t.Fatalf("publish: %v", err)
	}
}

// outboxIDs returns the event ids of the outbox in stream order.
func (a *eventsApp) outboxIDs(t testing.TB) []string {
	t.Helper()
	order := `"offset"`
	if a.DB.Dialect == sqldb.Postgres {
		order = `transaction_id, "offset"`
	}
	var ids []string
	if err := a.DB.Reader.Select(&ids, `SELECT uuid FROM watermill_events ORDER BY `+order); err != nil {
		t.Fatalf("read outbox: %v", err)
	}
	return ids
}

// effects is a consumer's side effect: one row per application of an event, with no
// unique key, so that applying an event twice shows as a duplicate.
func createEffects(t testing.TB, db *sqldb.DB) {
	t.Helper()
	seq := "seq INTEGER PRIMARY KEY AUTOINCREMENT"
	if db.Dialect == sqldb.Postgres {
		seq = "seq BIGSERIAL PRIMARY KEY"
	}
	if _, err := db.Writer.Exec(`CREATE TABLE IF NOT EXISTS test_effects (` + seq + `, consumer TEXT NOT NULL, event_id TEXT NOT NULL)`); err != nil {
		t.Fatalf("create test_effects: %v", err)
	}
}

// effectsConsumer inserts an effect row through the subscriber's transaction.
func effectsConsumer(name string, db func() *sqldb.DB, before func(ev events.Envelope) error) events.Consumer {
	return events.Consumer{Name: name, Handle: func(ctx context.Context, ev events.Envelope) error {
		d := db()
		if _, err := d.Write(ctx).ExecContext(ctx, d.Rebind(`INSERT INTO test_effects (consumer, event_id) VALUES (?, ?)`), name, ev.ID); err != nil {
			return err
		}
		if before != nil {
			return before(ev)
		}
		return nil
	}}
}

// effectIDs returns the event ids consumer applied, in the order applied.
func effectIDs(t testing.TB, db *sqldb.DB, consumer string) []string {
	t.Helper()
	var ids []string
	if err := db.Reader.Select(&ids, db.Rebind(`SELECT event_id FROM test_effects WHERE consumer = ? ORDER BY seq`), consumer); err != nil {
		t.Fatalf("read effects: %v", err)
	}
	return ids
}

// eventually polls cond until it holds or eventsWait passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(eventsWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recorder remembers what a consumer saw, in memory (for assertions on calls).
type recorder struct {
	mu  sync.Mutex
	ids []string
}

func (r *recorder) add(id string) {
	r.mu.Lock()
	r.ids = append(r.ids, id)
	r.mu.Unlock()
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ids...)
}

// labelOf reads the "label" field that publish puts in each event's data.
func labelOf(ev events.Envelope) (string, error) {
	var data map[string]string
	if err := json.Unmarshal(ev.Data, &data); err != nil {
		return "", fmt.Errorf("decode %s: %w", ev.ID, err)
	}
	return data["label"], nil
}

// holdBack opens a transaction on a's PostgreSQL database and gives it a transaction id:
// until it ends, every event committed after it began is held back from every poll (the
// snapshot's xmin). Rolled back at the end of the test unless committed before.
func (a *eventsApp) holdBack(t *testing.T) *sql.Tx {
	t.Helper()
	ctx := context.Background()
	tx, err := a.DB.Writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback() })
	if _, err := tx.ExecContext(ctx, `SELECT pg_current_xact_id()`); err != nil {
		t.Fatal(err)
	}
	return tx
}
