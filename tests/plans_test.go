package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/ratelimit"
	sqlanalytics "github.com/creatorapi/creatorapi/adapters/sql/analytics"
	sqlkeys "github.com/creatorapi/creatorapi/adapters/sql/keys"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/platform"
	appratelimit "github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// TestHotStatementsReadBoundedRowsWithAndWithoutStatistics runs every hot statement of
// the webhook path, the analytics projection and the API's per-request lookups through
// the real adapters on a PostgreSQL database of a million deliveries and a million
// attempts (20,000 of the deliveries due: a backlog), first never analysed, then analysed,
// each with custom and with generic plans. auto_explain reports each statement's actual
// plan; every one must read a bounded number of rows and buffers, never a table.
func TestHotStatementsReadBoundedRowsWithAndWithoutStatistics(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a million rows (about 30 s)")
	}
	testenv.Parallel(t)
	if os.Getenv(testenv.PostgresURLVar) == "" {
		testenv.SkipSuite(t, "PostgreSQL plans", testenv.PostgresURLVar+" is not set", "set "+testenv.PostgresURLVar)
	}
	// A cluster of its own: the load is one long transaction, and on the shared server its
	// snapshot xmin would hold every other test's events back (the SQL transport's
	// held_back) for its whole length; here it runs beside them.
	dbURL := testenv.StartPostgresServer(t).URL
	ctx := context.Background()
	plans := &planLog{}
	db := openExplained(t, dbURL, plans)
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	loadMillion(t, db.Writer)
	t.Logf("loaded in %v", time.Since(start).Round(time.Millisecond))
	var stats int
	if err := db.Writer.GetContext(ctx, &stats, `SELECT COUNT(*) FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()`); err != nil || stats != 0 {
		t.Fatalf("the database must have no statistics: %d rows of pg_statistic, %v", stats, err)
	}
	for _, state := range []string{"never analysed", "analysed"} {
		if state == "analysed" {
			if _, err := db.Writer.ExecContext(ctx, `ANALYZE`); err != nil {
				t.Fatal(err)
			}
		}
		for _, mode := range []string{"auto", "force_generic_plan"} {
			t.Run(state+"/"+mode, func(t *testing.T) {
				for _, path := range hotPaths(db) {
					explainPath(t, db, plans, mode, path)
				}
			})
		}
	}
}

// hotPath is one transaction's worth of hot statements, rolled back after.
type hotPath struct {
	name string
	run  func(ctx context.Context) error
}

func hotPaths(db *sqldb.DB) []hotPath {
	subs := sqlwebhooks.NewSubscriptions(db, noSealer{})
	deliveries := sqlwebhooks.NewDeliveries(db)
	dispatch := sqlwebhooks.NewDispatch(db, noSealer{})
	gates := sqlwebhooks.NewGates(db, noSealer{})
	projection := sqlanalytics.NewProjection(db)
	keys := sqlkeys.NewRepository(db)
	limits := ratelimit.NewDatabase(db, 0)
	positions := router.NewPositions(db, 4)
	now := time.Now().UTC()
	return []hotPath{
		{"webhook fan-out, claim, record", func(ctx context.Context) error {
			// The first fan-out of a type draws no ids: its statement finds the endpoints, which
			// are inserted one by one. The next ones are held to the end of the transaction (a
			// subscriber's batch) and written by one statement, with ids drawn beforehand.
			n, told := 0, 0
			var wrong error
			newID := func() string { n++; return fmt.Sprintf("evd_new%d", n) }
			fan := func(ev string) error {
				f := webhooks.Fan{WorkspaceID: "ws_0000501", EventID: ev, EventType: "student.created", Payload: []byte(`{}`),
					At: now, Token: "lease_fan", Until: now.Add(30 * time.Second)}
				return dispatch.FanOut(ctx, f, newID, func(_ context.Context, leases []webhooks.Lease) {
					if told++; len(leases) != 2 {
						wrong = fmt.Errorf("fanned out %s to %d endpoints; want 2", ev, len(leases))
					}
				})
			}
			for i := range 51 {
				if err := fan(fmt.Sprintf("evt_new%d", i)); err != nil {
					return err
				}
				if i == 0 || i == 50 {
					if err := sqldb.FlushDeferred(ctx); err != nil {
						return err
					}
				}
			}
			if wrong != nil || told != 51 || n != 102 {
				return fmt.Errorf("%v; %d fan-outs written, %d delivery ids drawn; want 51 and 102", wrong, told, n)
			}
			// A dispatcher with 64 free slots, two endpoints at their limit.
			room := webhooks.Room{PerEndpoint: 16, InFlight: map[string]int{"whk_0000001": 16, "whk_0000002": 16}}
			leases, err := dispatch.ClaimDue(ctx, now, now.Add(30*time.Second), "lease_plan", 64, room)
			if err != nil || len(leases) != 64 {
				return fmt.Errorf("claimed %d, %v", len(leases), err)
			}
			fs := make([]webhooks.Finished, len(leases))
			attempts := make([]webhooks.Attempt, len(leases))
			for i, l := range leases {
				d := *l.Delivery
				attempts[i] = d.RecordAttempt(webhooks.Result{StatusCode: 204}, now, webhooks.Policy{Schedule: webhooks.DefaultSchedule, MaxRetryAfter: 24 * time.Hour})
				fs[i] = webhooks.Finished{Delivery: &d, Token: l.Token, Cycle: l.Delivery.CycleAttempts}
			}
			// Successes are recorded with one statement, a batch with failures with three.
			saved, err := dispatch.FinishSucceeded(ctx, fs[:32], attempts[:32])
			if err != nil || len(saved) != 32 || !saved[0] {
				return fmt.Errorf("finished succeeded %v, %v", saved, err)
			}
			saved, err = dispatch.Finish(ctx, fs[32:])
			if err != nil || len(saved) != 32 || !saved[0] {
				return fmt.Errorf("finished %v, %v", saved, err)
			}
			if err := deliveries.AddAttempts(ctx, attempts[32:]); err != nil {
				return err
			}
			return subs.MarkHealthy(ctx, "ws_0000501", []string{"whk_0000501", "whk_0001501"})
		}},
		{"gated claim", func(ctx context.Context) error {
			// PostgreSQL's one statement: five endpoints' due deliveries within their slots,
			// five ordered endpoints' heads, and the paused one opened.
			room := webhooks.Room{PerEndpoint: 16, InFlight: map[string]int{"whk_0000012": 8}}
			leases, err := gates.ClaimGated(ctx, now, now.Add(30*time.Second), "lease_gated", 64, room, time.Second)
			if err != nil || len(leases) != 8+4*10+5 {
				return fmt.Errorf("claimed %d gated deliveries, want 53: %v", len(leases), err)
			}
			return nil
		}},
		{logAnyStatus, func(ctx context.Context) error {
			// No index orders an endpoint's deliveries whatever their status (migration 00033):
			// the page merges one range of the status index per status, each cut at the
			// page's length. A plan that sorts the endpoint's 500 deliveries reads past the bound.
			log := sqlwebhooks.NewLog(db)
			f := query.LogFilter{WorkspaceID: "ws_0000501", WebhookID: "whk_0000501"}
			first, err := log.Search(ctx, f, platform.PageRequest{Limit: 25})
			if err != nil || len(first.Items) != 25 || first.Next == nil {
				return fmt.Errorf("first page: %d deliveries, next %v: %v", len(first.Items), first.Next, err)
			}
			second, err := deliveries.Page(ctx, f.WorkspaceID, f.WebhookID, "", platform.PageRequest{Limit: 25, After: first.Next})
			if err != nil || len(second.Items) != 25 || !second.Items[0].CreatedAt.Before(first.Items[24].CreatedAt) {
				return fmt.Errorf("second page: %d deliveries: %v", len(second.Items), err)
			}
			return nil
		}},
		{"analytics projection", func(ctx context.Context) error {
			day := command.DayOf(now)
			if err := projection.AddActivity(ctx, "ws_0000501", day, command.Activity{StudentsNew: 1}); err != nil {
				return err
			}
			if err := projection.AddRevenue(ctx, "ws_0000501", day, "usd", command.Revenue{Gross: 100, Orders: 1}); err != nil {
				return err
			}
			if _, _, err := projection.Enrollment(ctx, "ws_0000501", "enr_000100500"); err != nil {
				return err
			}
			if err := projection.SaveEnrollment(ctx, "ws_0000501", "enr_000100500", command.EnrollmentState{}); err != nil {
				return err
			}
			return projection.Advance(ctx, "ws_0000501", "evt_new", now, now)
		}},
		{"events: idle partitions' checks and polls", func(ctx context.Context) error {
			// Partition 0 wrote the million events before; every new one is partition 2's.
			// The checks and polls of partition 0 must not walk partition 2's events.
			if _, err := positions.CaughtUp(ctx, "plans"); err != nil {
				return err
			}
			for part := range 4 {
				rows, err := db.Write(ctx).QueryContext(ctx, schema.PollStatement(4, part, 100), eventbus.PartGroup("plans", part, 4))
				if err != nil {
					return err
				}
				n := 0
				for rows.Next() {
					n++
				}
				if err := rows.Close(); err != nil {
					return err
				}
				if want := map[int]int{2: 100}[part]; n != want {
					return fmt.Errorf("poll of partition %d: %d events, want %d", part, n, want)
				}
			}
			return nil
		}},
		{"API request", func(ctx context.Context) error {
			if _, err := keys.FindByLookup(ctx, "lk000050000"); err != nil {
				return err
			}
			w := appratelimit.Windows{Minute: now.Truncate(time.Minute), Day: now.Truncate(24 * time.Hour)}
			_, _, err := limits.Take(ctx, "key:key_000050000", w, appratelimit.Quota{PerMinute: 600, PerDay: 100000})
			return err
		}},
	}
}

var errRollBack = errors.New("roll back")

// explainPath runs one path in a transaction that auto_explain watches, rolls it back, and
// checks the plan of every statement it ran.
func explainPath(t *testing.T, db *sqldb.DB, plans *planLog, mode string, p hotPath) {
	t.Helper()
	plans.reset()
	err := db.WithinTx(context.Background(), func(ctx context.Context) error {
		for _, set := range []string{"SET LOCAL plan_cache_mode = " + mode, "SET LOCAL auto_explain.log_min_duration = 0"} {
			if _, err := db.Write(ctx).ExecContext(ctx, set); err != nil {
				return err
			}
		}
		if err := p.run(ctx); err != nil {
			return err
		}
		_, err := db.Write(ctx).ExecContext(ctx, "SET LOCAL auto_explain.log_min_duration = -1")
		if err != nil {
			return err
		}
		return errRollBack
	})
	if !errors.Is(err, errRollBack) {
		t.Fatalf("%s: %v", p.name, err)
	}
	got := plans.take()
	if len(got) == 0 {
		t.Fatalf("%s: auto_explain reported no plan", p.name)
	}
	for _, pl := range got {
		if strings.HasPrefix(pl.Query, "SET LOCAL") {
			continue
		}
		read := pl.Plan.rowsRead()
		buffers := pl.Plan.SharedHit + pl.Plan.SharedRead
		t.Logf("%s: %d rows read, %d buffers: %s", p.name, read, buffers, firstLine(pl.Query))
		if seq := pl.Plan.seqScans(); len(seq) > 0 {
			t.Errorf("%s: sequential scan of %v in %s\n%s", p.name, seq, firstLine(pl.Query), pl.raw)
		}
		bound := maxRowsRead
		if b, ok := tighterRowBounds[p.name]; ok {
			bound = b
		}
		if read > bound || buffers > maxBuffers {
			t.Errorf("%s: %d rows read, %d buffers (bounds %d, %d) in %s\n%s", p.name, read, buffers, bound, maxBuffers, firstLine(pl.Query), pl.raw)
		}
	}
}

// Bounds of one hot statement. The claim reads the most: up to 4 candidates per free slot
// (256), each with its endpoint, then leases 64 and returns them with their endpoints. A
// plan that sorts the 20,000 due rows, or walks every endpoint, reads far more.
const (
	maxRowsRead = 2_000
	maxBuffers  = 6_000
)

// logAnyStatus is the hot path of the unfiltered delivery log, whose statements have a
// tighter bound: three ranges of at most a page and one row each (pages of 25).
const logAnyStatus = "delivery log, any status, first page and at a position"

var tighterRowBounds = map[string]int{logAnyStatus: 3 * 26}

// tinyTables hold a row per consumer group and partition (12 in production): one page,
// which a sequential scan reads as cheaply as an index would.
var tinyTables = map[string]bool{"watermill_offsets_events": true}

func firstLine(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 120 {
		q = q[:120] + "..."
	}
	return q
}

// planNode is the part of EXPLAIN (FORMAT JSON) the test reads.
type planNode struct {
	NodeType       string     `json:"Node Type"`
	Relation       string     `json:"Relation Name"`
	ActualRows     float64    `json:"Actual Rows"`
	ActualLoops    float64    `json:"Actual Loops"`
	RemovedFilter  float64    `json:"Rows Removed by Filter"`
	RemovedRecheck float64    `json:"Rows Removed by Index Recheck"`
	SharedHit      int        `json:"Shared Hit Blocks"`
	SharedRead     int        `json:"Shared Read Blocks"`
	Plans          []planNode `json:"Plans"`
}

// rowsRead counts the rows every scan produced or filtered away, over all its loops.
func (n planNode) rowsRead() int {
	total := 0
	if strings.HasSuffix(n.NodeType, "Scan") && n.Relation != "" {
		total += int((n.ActualRows + n.RemovedFilter + n.RemovedRecheck) * max(n.ActualLoops, 1))
	}
	for _, c := range n.Plans {
		total += c.rowsRead()
	}
	return total
}

// seqScans lists the tables read whole (the small endpoint table included: it grows too).
func (n planNode) seqScans() []string {
	var out []string
	if n.NodeType == "Seq Scan" && !tinyTables[n.Relation] {
		out = append(out, n.Relation)
	}
	for _, c := range n.Plans {
		out = append(out, c.seqScans()...)
	}
	return out
}

type explained struct {
	Query string   `json:"Query Text"`
	Plan  planNode `json:"Plan"`
	raw   string
}

// planLog collects auto_explain's notices.
type planLog struct {
	mu    sync.Mutex
	plans []explained
	bad   []string
}

func (l *planLog) notice(_ *pgconn.PgConn, n *pgconn.Notice) {
	i := strings.Index(n.Message, "{")
	if !strings.Contains(n.Message, "plan:") || i < 0 {
		return
	}
	var e explained
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := json.Unmarshal([]byte(n.Message[i:]), &e); err != nil {
		l.bad = append(l.bad, err.Error())
		return
	}
	e.raw = n.Message[i:]
	l.plans = append(l.plans, e)
}

func (l *planLog) reset() { l.mu.Lock(); l.plans, l.bad = nil, nil; l.mu.Unlock() }

func (l *planLog) take() []explained {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.plans
}

// openExplained opens the database with auto_explain loaded in every session, reporting
// each plan (actual rows and buffers, JSON) to the client as a notice.
func openExplained(t *testing.T, dbURL string, plans *planLog) *sqldb.DB {
	t.Helper()
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"session_preload_libraries": "auto_explain", "auto_explain.log_min_duration": "-1",
		"auto_explain.log_analyze": "on", "auto_explain.log_buffers": "on", "auto_explain.log_timing": "off",
		"auto_explain.log_format": "json", "auto_explain.log_level": "notice",
	} {
		cfg.RuntimeParams[k] = v
	}
	cfg.OnNotice = plans.notice
	x := sqlx.NewDb(stdlib.OpenDB(*cfg), "pgx")
	x.SetMaxOpenConns(2)
	t.Cleanup(func() { x.Close() })
	return sqldb.FromPostgres(x)
}

// loadMillion fills the webhook tables with a month of traffic: a million deliveries
// (1,000 workspaces, 2,000 endpoints; 20,000 due now, 1,000 waiting for a retry, the
// rest succeeded) and their attempts, plus the projection's and the API's tables. The
// secondary indexes are built after the rows (much faster than row by row) and foreign
// keys are not checked (session_replication_role); then the tables' row counts are set
// back to "never measured", as on a database autovacuum never visited.
func loadMillion(t *testing.T, db *sqlx.DB) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var rebuild []string
	if err := tx.SelectContext(ctx, &rebuild, `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()
		AND tablename IN ('webhook_deliveries', 'webhook_attempts') AND indexname NOT LIKE '%pkey' AND indexname NOT LIKE '%key'`); err != nil {
		t.Fatal(err)
	}
	steps := []string{
		`SET LOCAL session_replication_role = replica`,
		`SET LOCAL maintenance_work_mem = '64MB'`,
		`DO $$ DECLARE i text; BEGIN FOR i IN SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()
			AND tablename IN ('webhook_deliveries', 'webhook_attempts') AND indexname NOT LIKE '%pkey' AND indexname NOT LIKE '%key'
			LOOP EXECUTE 'DROP INDEX ' || quote_ident(i); END LOOP; END $$`,
		`INSERT INTO workspaces (id, name, owner_email, created_at)
		 SELECT 'ws_' || lpad(g::text, 7, '0'), 'W', 'o@example.com', now() - interval '60 days' FROM generate_series(1, 1000) g`,
		`INSERT INTO webhook_subscriptions (id, workspace_id, url, events, status, secret_sealed, created_at, updated_at)
		 SELECT 'whk_' || lpad(g::text, 7, '0'), 'ws_' || lpad(((g - 1) % 1000 + 1)::text, 7, '0'), 'https://example.com/h',
		        'student.created order.paid', 'enabled', '\x00', now() - interval '60 days', now() - interval '60 days'
		 FROM generate_series(1, 2000) g`,
		`INSERT INTO webhook_deliveries (id, workspace_id, subscription_id, event_id, event_type, payload, status, attempts,
		        cycle_attempts, next_attempt_at, last_attempt_at, last_status, created_at, updated_at)
		 SELECT 'evd_' || lpad(g::text, 9, '0'), 'ws_' || lpad(((g - 1) % 1000 + 1)::text, 7, '0'),
		        'whk_' || lpad(((g - 1) % 2000 + 1)::text, 7, '0'), 'evt_' || lpad(g::text, 9, '0'), 'student.created', '\x7b7d',
		        CASE WHEN g > 979000 THEN 'pending' ELSE 'succeeded' END, 1, 1,
		        CASE WHEN g > 980000 THEN now() - interval '1 second' WHEN g > 979000 THEN now() + interval '1 hour' END,
		        now() - (1000000 - g) * interval '2.5 seconds', 204,
		        now() - (1000000 - g) * interval '2.5 seconds', now() - (1000000 - g) * interval '2.5 seconds'
		 FROM generate_series(1, 1000000) g`,
		// Gated endpoints: 12-16 limited to 500/s, 17-21 ordered (ten due deliveries each,
		// the earliest first), and 11, which only an ended pause gates.
		`UPDATE webhook_subscriptions SET gated = TRUE, rate_limit = CASE WHEN id BETWEEN 'whk_0000012' AND 'whk_0000016' THEN 500 END,
		        ordered = id >= 'whk_0000017', paused_until = CASE WHEN id = 'whk_0000011' THEN now() - interval '1 minute' END
		 WHERE id BETWEEN 'whk_0000011' AND 'whk_0000021'`,
		`UPDATE webhook_deliveries SET gated = TRUE WHERE subscription_id BETWEEN 'whk_0000011' AND 'whk_0000021' AND next_attempt_at IS NOT NULL`,
		`INSERT INTO webhook_attempts (delivery_id, number, workspace_id, subscription_id, attempted_at, status_code, latency_ms,
		        response, error, outcome)
		 SELECT 'evd_' || lpad(g::text, 9, '0'), 1, 'ws_' || lpad(((g - 1) % 1000 + 1)::text, 7, '0'),
		        'whk_' || lpad(((g - 1) % 2000 + 1)::text, 7, '0'), now() - (1000000 - g) * interval '2.5 seconds', 204, 3, '', '', 'succeeded'
		 FROM generate_series(1, 1000000) g`,
		`INSERT INTO api_keys (id, workspace_id, name, lookup, secret_hash, scopes, per_minute, per_day, created_at)
		 SELECT 'key_' || lpad(g::text, 9, '0'), 'ws_' || lpad((g % 1000 + 1)::text, 7, '0'), 'k', 'lk' || lpad(g::text, 9, '0'),
		        '\x00', 'students:write', 600, 100000, now() - interval '30 days'
		 FROM generate_series(1, 100000) g`,
		`INSERT INTO rate_limit_counters (subject, minute_start, minute_count, day_start, day_count)
		 SELECT 'key:key_' || lpad(g::text, 9, '0'), 0, 1, 0, 1 FROM generate_series(1, 100000) g`,
		// The outbox: a million events of partition 0 (of 4), then 20,000 of partition 2;
		// consumer "plans" is at the end of partition 0 in every partition.
		`CREATE INDEX watermill_events_part_4 ON watermill_events ((partition_key % 4), transaction_id, "offset")`,
		`INSERT INTO watermill_events (uuid, payload, metadata, transaction_id, partition_key)
		 SELECT 'evt_' || g, '{}', '{}', pg_current_xact_id(), 4 * g FROM generate_series(1, 1000000) g`,
		`INSERT INTO watermill_offsets_events (consumer_group, offset_acked, last_processed_transaction_id)
		 SELECT 'plans/p' || p || 'of4', (SELECT max("offset") FROM watermill_events), pg_current_xact_id() FROM generate_series(0, 3) p`,
		`INSERT INTO watermill_events (uuid, payload, metadata, transaction_id, partition_key)
		 SELECT 'evt_new_' || g, '{}', '{}', pg_current_xact_id(), 4 * g + 2 FROM generate_series(1, 20000) g`,
		`INSERT INTO analytics_activity_daily (workspace_id, day, students_new)
		 SELECT 'ws_' || lpad(w::text, 7, '0'), d, 1 FROM generate_series(1, 1000) w, generate_series(20200, 20565) d`,
		`INSERT INTO analytics_revenue_daily (workspace_id, day, currency, gross, orders)
		 SELECT 'ws_' || lpad(w::text, 7, '0'), d, 'usd', 100, 1 FROM generate_series(1, 1000) w, generate_series(20200, 20565) d`,
		`INSERT INTO analytics_enrollments (workspace_id, enrollment_id, revoked_day)
		 SELECT 'ws_' || lpad((g % 1000 + 1)::text, 7, '0'), 'enr_' || lpad(g::text, 9, '0'), NULL FROM generate_series(1, 200000) g`,
		`INSERT INTO analytics_progress (workspace_id, last_event_id, last_event_at, applied_at)
		 SELECT 'ws_' || lpad(w::text, 7, '0'), 'evt_x', now(), now() FROM generate_series(1, 1000) w`,
	}
	steps = append(steps, rebuild...)
	steps = append(steps, `UPDATE pg_class SET reltuples = -1, relpages = 0 WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`)
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			t.Fatalf("load: %v\n%s", err, q)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// noSealer leaves secrets unreadable: the claim then marks the endpoints so, which is all
// a plan test needs of them.
type noSealer struct{}

func (noSealer) Seal(string, []byte) ([]byte, error) { return []byte{0}, nil }
func (noSealer) Open(string, []byte) ([]byte, error) { return nil, errors.New("sealed for the test") }
