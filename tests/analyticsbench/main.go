// Command analyticsbench measures the analytics summary served from the read model:
// latency of a 366-day window with 10,000 and 1,000,000 orders seeded into the read
// model with SQL, on PostgreSQL (CREATORAPI_TEST_POSTGRES_URL) and SQLite; and events/s
// through the outbox and the analytics projection on PostgreSQL. Run by `make bench`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/creatorapi/creatorapi/tests/benchkit"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

func main() {
	requests := flag.Int("requests", 2000, "summaries measured per size")
	burst := flag.Int("burst", 5000, "events of the throughput run")
	flag.Parse()
	if err := run(*requests, *burst); err != nil {
		fmt.Fprintln(os.Stderr, "analyticsbench:", err)
		os.Exit(1)
	}
}

type target struct{ name, url string }

func run(requests, burst int) error {
	dir, err := os.MkdirTemp("", "analyticsbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var pg string
	if base := os.Getenv("CREATORAPI_TEST_POSTGRES_URL"); base != "" {
		pg = base
	} else {
		fmt.Println("analytics: PostgreSQL skipped (set CREATORAPI_TEST_POSTGRES_URL)")
	}
	for _, orders := range []int{10_000, 1_000_000} {
		targets := []target{{"sqlite", "sqlite://" + filepath.Join(dir, fmt.Sprintf("bench-%d.db", orders))}}
		if pg != "" {
			u, drop, err := benchkit.FreshSchema(pg)
			if err != nil {
				return err
			}
			defer drop()
			targets = append([]target{{"postgres", u}}, targets...)
		}
		for _, tg := range targets {
			if err := latency(tg, dir, orders, requests); err != nil {
				return fmt.Errorf("%s: %w", tg.name, err)
			}
		}
	}
	if pg != "" {
		u, drop, err := benchkit.FreshSchema(pg)
		if err != nil {
			return err
		}
		defer drop()
		if err := throughput(target{"postgres", u}, dir, burst); err != nil {
			return fmt.Errorf("postgres throughput: %w", err)
		}
	}
	return nil
}

func config(tg target, dir string) (compose.Config, error) {
	cfg, err := compose.LoadConfig(func(string) string { return "" })
	if err != nil {
		return cfg, err
	}
	cfg.DataDir, cfg.DatabaseURL, cfg.LogLevel = filepath.Join(dir, tg.name), tg.url, "error"
	cfg.SecretKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	return cfg, nil
}

// latency seeds the read model and times GetSummary (freshness check and both sums)
// over the 366 days ending today, sequentially.
func latency(tg target, dir string, orders, requests int) error {
	cfg, err := config(tg, dir)
	if err != nil {
		return err
	}
	var db *sqldb.DB
	var app analytics.Application
	fxApp := fx.New(compose.Modules(cfg), fx.Populate(&db, &app), fx.NopLogger)
	ctx := context.Background()
	if err := fxApp.Start(ctx); err != nil {
		return err
	}
	defer fxApp.Stop(ctx)
	started := time.Now()
	rows, err := seed(ctx, db, orders)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	seeded := time.Since(started)
	if db.Dialect == sqldb.Postgres { // as autovacuum would after such a load
		if _, err := db.Writer.ExecContext(ctx, `ANALYZE analytics_revenue_daily; ANALYZE analytics_activity_daily`); err != nil {
			return err
		}
	}
	today := time.Now().UTC()
	q := query.GetSummary{WorkspaceID: measured, From: today.AddDate(0, 0, -(query.MaxDays - 1)).Format(time.DateOnly), To: today.Format(time.DateOnly)}
	var lat []time.Duration
	var s query.Summary
	for i := range requests + requests/10 {
		t0 := time.Now()
		if s, err = app.Queries.GetSummary.Handle(ctx, q); err != nil {
			return err
		}
		if i >= requests/10 { // the first tenth warms caches and prepared statements
			lat = append(lat, time.Since(t0))
		}
	}
	var n int64
	for _, r := range s.Revenue {
		n += r.Orders
	}
	fmt.Printf("analytics %-8s summary, 366-day window, %9d orders (%d read-model rows, seeded in %v; window has %d orders): p50 %v  p99 %v  max %v\n",
		tg.name, orders, rows, seeded.Round(time.Second), n, benchkit.Percentile(lat, 50), benchkit.Percentile(lat, 99), benchkit.Percentile(lat, 100))
	return nil
}
