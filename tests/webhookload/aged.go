package main

import (
	"context"
	"fmt"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"github.com/jmoiron/sqlx"
)

// ageDatabase makes a PostgreSQL database look like one that has served for a month:
// n students, n outbox events with their consumer ledger rows, n succeeded deliveries
// and their attempts, spread over the last 29 days (inside every retention window),
// copied from the template rows the first real event left. The consumers' positions are
// moved past the copies in the same transaction, so nothing is processed twice. Then
// ANALYZE, as autovacuum would have by then (unless analyze is false: the plans of a
// database nobody analysed, which every hot statement must survive too).
func ageDatabase(ctx context.Context, dbURL string, n int, analyze bool) (time.Duration, error) {
	start := time.Now()
	db, err := sqlx.Open("pgx", dbURL)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	// Ages: g*2.5 s back from now spreads a million rows over 29 days.
	steps := []string{
		`INSERT INTO students (id, workspace_id, email, email_lower, first_name, last_name, external_id, metadata, created_at, updated_at)
		 SELECT 'stu_aged' || lpad(g::text, 9, '0'), s.workspace_id, 'aged' || g || '@example.com', 'aged' || g || '@example.com',
		        s.first_name, s.last_name, '', '{}', now() - g * interval '2.5 seconds', now() - g * interval '2.5 seconds'
		 FROM generate_series(1, $1) g, (SELECT * FROM students ORDER BY created_at LIMIT 1) s`,
		`INSERT INTO watermill_events (uuid, created_at, payload, metadata, transaction_id)
		 SELECT md5(g::text)::uuid::text, (now() - g * interval '2.5 seconds') AT TIME ZONE 'UTC', e.payload, e.metadata, pg_current_xact_id()
		 FROM generate_series(1, $1) g, (SELECT payload, metadata FROM watermill_events ORDER BY "offset" LIMIT 1) e`,
		`INSERT INTO event_processed (consumer, event_id, processed_at)
		 SELECT c.consumer, 'evt_aged' || lpad(g::text, 9, '0'), now() - g * interval '2.5 seconds'
		 FROM generate_series(1, $1) g, (SELECT DISTINCT consumer FROM event_processed) c`,
		`INSERT INTO webhook_deliveries (id, workspace_id, subscription_id, event_id, event_type, payload, status, attempts,
		        cycle_attempts, last_attempt_at, last_status, created_at, updated_at)
		 SELECT 'evd_aged' || lpad(g::text, 9, '0'), d.workspace_id, d.subscription_id, 'evt_aged' || lpad(g::text, 9, '0'),
		        d.event_type, d.payload, 'succeeded', 1, d.cycle_attempts, now() - g * interval '2.5 seconds', 204,
		        now() - g * interval '2.5 seconds', now() - g * interval '2.5 seconds'
		 FROM generate_series(1, $1) g, (SELECT * FROM webhook_deliveries ORDER BY created_at LIMIT 1) d`,
		`INSERT INTO webhook_attempts (delivery_id, number, workspace_id, subscription_id, attempted_at, status_code, latency_ms, response, error, outcome)
		 SELECT 'evd_aged' || lpad(g::text, 9, '0'), 1, a.workspace_id, a.subscription_id, now() - g * interval '2.5 seconds',
		        a.status_code, a.latency_ms, a.response, a.error, a.outcome
		 FROM generate_series(1, $1) g, (SELECT * FROM webhook_attempts LIMIT 1) a`,
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q, n); err != nil {
			return 0, fmt.Errorf("age database: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE watermill_offsets_events SET
		offset_acked = (SELECT max("offset") FROM watermill_events), last_processed_transaction_id = pg_current_xact_id()`); err != nil {
		return 0, fmt.Errorf("move consumer positions: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	if analyze {
		if err := analyzeSchema(ctx, db); err != nil {
			return 0, err
		}
	}
	// The load wrote about half a gigabyte of WAL: without this, the checkpoint it calls
	// for ran through the phases, every first touch of a page after it writing a full page
	// image (one run's aged 500/s: API p99 235 ms, saturation 722/s, against 19 ms and
	// 910/s in the run before).
	if _, err := db.ExecContext(ctx, `CHECKPOINT`); err != nil {
		return 0, fmt.Errorf("checkpoint after the load: %w", err)
	}
	return time.Since(start), nil
}

// analyzeSchema analyses the tables of the run's own schema only (a bare ANALYZE would
// walk every schema of the shared database).
func analyzeSchema(ctx context.Context, db *sqlx.DB) error {
	var tables []string
	if err := db.SelectContext(ctx, &tables, `SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema()`); err != nil {
		return fmt.Errorf("list tables: %w", err)
	}
	for _, t := range tables {
		if _, err := db.ExecContext(ctx, "ANALYZE "+t); err != nil {
			return fmt.Errorf("analyze %s: %w", t, err)
		}
	}
	return nil
}
