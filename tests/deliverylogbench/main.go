// Command deliverylogbench measures the dashboard's webhook pages on PostgreSQL with
// 1,000,000 deliveries (and their attempts) in the table, loaded with INSERT ... SELECT
// generate_series over 29 days: sequential requests through the public fiber app, p50
// and p99 per page. The goal is p99 under 30 ms for every delivery-log page. Run by
// `make bench` (needs CREATORAPI_TEST_POSTGRES_URL; a schema of its own, dropped after).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/webhooks"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/workspaces"
	wscmd "github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/benchkit"
)

const goal = 30 * time.Millisecond

func main() {
	requests := flag.Int("requests", 300, "requests measured per page")
	rows := flag.Int("deliveries", 1_000_000, "deliveries in the table")
	flag.Parse()
	base := os.Getenv("CREATORAPI_TEST_POSTGRES_URL")
	if base == "" {
		fmt.Fprintln(os.Stderr, "deliverylogbench: CREATORAPI_TEST_POSTGRES_URL is not set; skipped")
		if os.Getenv("CI") == "true" {
			os.Exit(1)
		}
		return
	}
	if err := run(base, *requests, *rows); err != nil {
		fmt.Fprintln(os.Stderr, "deliverylogbench:", err)
		os.Exit(1)
	}
}

func run(base string, requests, n int) error {
	dbURL, drop, err := benchkit.FreshSchema(base)
	if err != nil {
		return err
	}
	defer drop()
	dir, err := os.MkdirTemp("", "deliverylogbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg, err := compose.LoadConfig(func(string) string { return "" })
	if err != nil {
		return err
	}
	cfg.DataDir, cfg.DatabaseURL, cfg.LogLevel = dir, dbURL, "error"
	cfg.SecretKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	var (
		pub compose.PublicApp
		db  *sqldb.DB
		ws  workspaces.Application
		ms  members.Application
		wh  webhooks.Application
	)
	app := fx.New(compose.Modules(cfg), fx.Populate(&pub, &db, &ws, &ms, &wh), fx.NopLogger)
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		return err
	}
	defer app.Stop(ctx)

	w, err := ws.Commands.CreateWorkspace.Handle(ctx, wscmd.CreateWorkspace{Name: "Bench Academy", OwnerEmail: "owner@example.com"})
	if err != nil {
		return err
	}
	all := webhookcmd.PublicTypeNames()
	hook, err := wh.Commands.CreateWebhook.Handle(ctx, webhookcmd.CreateWebhook{WorkspaceID: w.ID, URL: "https://receiver.example.com/hooks", Events: all})
	if err != nil {
		return err
	}
	other, err := wh.Commands.CreateWebhook.Handle(ctx, webhookcmd.CreateWebhook{WorkspaceID: w.ID, URL: "https://other.example.com/hooks", Events: all})
	if err != nil {
		return err
	}
	started := time.Now()
	if err := seed(ctx, db, w.ID, hook.ID, other.ID, n); err != nil {
		return err
	}
	fmt.Printf("delivery log postgres: %d deliveries and attempts, 90%% to one endpoint, over 29 days (loaded and analysed in %v); %d sequential requests per page\n",
		n, time.Since(started).Round(time.Second), requests)

	link, err := ms.Commands.IssueLink.Handle(ctx, membercmd.IssueLink{WorkspaceID: w.ID})
	if err != nil {
		return err
	}
	u, _ := url.Parse(link.URL)
	session, err := ms.Commands.SignIn.Handle(ctx, membercmd.SignIn{Token: u.Query().Get("token")})
	if err != nil {
		return err
	}
	cookie := "creatorapi_session=" + session.SessionToken
	pageTimer := benchkit.Pages{App: pub.App, Cookie: cookie, Requests: requests}
	measure := func(path string) (time.Duration, time.Duration, error) { return pageTimer.Measure(path, true) }
	// A cursor half-way down the log, as "Older deliveries" links write it.
	var mid struct {
		ID string    `db:"id"`
		At time.Time `db:"created_at"`
	}
	if err := db.Reader.Get(&mid, `SELECT id, created_at FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $2`, hook.ID, n/4); err != nil {
		return err
	}
	cursor := fmt.Sprintf("%d.%s", mid.At.UnixMicro(), mid.ID)
	root := "/dashboard/w/" + w.ID + "/webhooks"
	logPath := root + "/" + hook.ID + "/deliveries"
	pages := []struct{ name, path string }{
		{"webhooks list (24 h figures)", root},
		{"endpoint page", root + "/" + hook.ID},
		{"log, newest 50", logPath},
		{"log, failed", logPath + "?status=failed"},
		{"log, failing", logPath + "?status=failing"},
		{"log, order.paid", logPath + "?type=order.paid"},
		{"log, failed order.paid", logPath + "?status=failed&type=order.paid"},
		{"log, page at row 250,000", logPath + "?before=" + cursor},
		{"log, failed at row 250,000", logPath + "?status=failed&before=" + cursor},
		{"log, search event id", logPath + "?q=" + fmt.Sprintf("evt_bench%09d", n/8)},
		{"log, search delivery id", logPath + "?q=" + fmt.Sprintf("evd_bench%09d", n*2/3)},
		{"delivery page", logPath + "/" + fmt.Sprintf("evd_bench%09d", n/8)},
		{"event catalogue", root + "/events"},
	}
	_, base99, err := measureHealth(pub)
	if err != nil {
		return err
	}
	fmt.Printf("  %-28s p99 %-9v (baseline GET /healthz through the same app)\n", "healthz", base99)
	var failed []string
	worst := time.Duration(0)
	for _, p := range pages {
		p50, p99, err := measure(p.path)
		if err != nil {
			return err
		}
		verdict := "ok"
		if p99 >= goal {
			verdict = "OVER 30 ms"
			failed = append(failed, p.name)
		}
		worst = max(worst, p99)
		fmt.Printf("  %-28s p50 %-9v p99 %-9v %s\n", p.name, p50, p99, verdict)
	}
	if len(failed) > 0 {
		return fmt.Errorf("p99 over %v on: %s", goal, strings.Join(failed, ", "))
	}
	fmt.Printf("delivery log postgres: every page p99 under %v with %d deliveries (worst %v)\n", goal, n, worst)
	return nil
}

func measureHealth(pub compose.PublicApp) (p50, p99 time.Duration, err error) {
	var lat []time.Duration
	for range 300 {
		t0 := time.Now()
		res, err := pub.Test(httptest.NewRequest(http.MethodGet, "/healthz", nil), -1)
		if err != nil {
			return 0, 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(t0))
	}
	return benchkit.Percentile(lat, 50), benchkit.Percentile(lat, 99), nil
}

// seed loads n deliveries (90% to hook, the rest to other) with one attempt each: a
// tenth failed for good, a tenth failing with a retry due, the rest succeeded; the 13
// types in turn; one every 2.5 s back from now (29 days).
func seed(ctx context.Context, db *sqldb.DB, ws, hook, other string, n int) error {
	steps := []string{
		`INSERT INTO webhook_deliveries (id, workspace_id, subscription_id, event_id, event_type, payload, status, attempts,
		        cycle_attempts, next_attempt_at, last_attempt_at, last_status, last_error, created_at, updated_at)
		 SELECT 'evd_bench' || lpad(g::text, 9, '0'), $2, CASE WHEN g % 10 = 9 THEN $4 ELSE $3 END,
		        'evt_bench' || lpad(g::text, 9, '0'), (ARRAY['student.created','student.updated','student.deleted','enrollment.created',
		        'enrollment.revoked','order.paid','order.refunded','course.published','course.archived','live_session.started',
		        'live_session.ended','recording.ready','certificate.issued'])[1 + g % 13],
		        convert_to('{"id":"evt_bench' || lpad(g::text, 9, '0') || '","type":"order.paid","data":{}}', 'UTF8'),
		        CASE g % 10 WHEN 0 THEN 'failed' WHEN 1 THEN 'pending' ELSE 'succeeded' END,
		        CASE g % 10 WHEN 0 THEN 7 ELSE 1 END, 1,
		        CASE g % 10 WHEN 1 THEN now() + interval '1 hour' END,
		        now() - g * interval '2.5 seconds', CASE g % 10 WHEN 0 THEN 500 WHEN 1 THEN 503 ELSE 204 END,
		        CASE g % 10 WHEN 0 THEN 'HTTP 500' ELSE '' END,
		        now() - g * interval '2.5 seconds', now() - g * interval '2.5 seconds'
		 FROM generate_series(1, $1) g`,
		`INSERT INTO webhook_attempts (delivery_id, number, workspace_id, subscription_id, attempted_at, status_code, latency_ms, response, error, outcome)
		 SELECT d.id, 1, d.workspace_id, d.subscription_id, d.created_at, d.last_status, 42, 'ok', d.last_error,
		        CASE d.status WHEN 'succeeded' THEN 'succeeded' WHEN 'failed' THEN 'failed' ELSE 'retry' END
		 FROM webhook_deliveries d WHERE d.workspace_id = $1`,
	}
	args := [][]any{{n, ws, hook, other}, {ws}}
	for i, q := range steps {
		if _, err := db.Writer.ExecContext(ctx, q, args[i]...); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
	}
	for _, t := range []string{"webhook_deliveries", "webhook_attempts"} {
		if _, err := db.Writer.ExecContext(ctx, "VACUUM ANALYZE "+t); err != nil {
			return fmt.Errorf("analyse %s: %w", t, err)
		}
	}
	return nil
}
