package webhooks

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// finishStatements are the recording's statements around their lists of rows.
//
// On PostgreSQL a batch's rows are one array per column (unnest(...) AS v(column1, ...)),
// so that both statements have one text whatever the batch's size. As VALUES lists (one
// CAST per value, 22 a delivery) every size from 1 to 128 was a statement of its own,
// prepared and planned anew on each pooled connection, and its planning was a fifth of the
// recording's time at saturation (docs/performance.md). SQLite keeps VALUES lists: its
// statements are calls in the process, and it has no arrays.
type finishStatements struct {
	update     string // the deliveries' new states, around %s (the rows) and %s (RETURNING)
	valueTypes []string
	oneTripPG  bool   // FinishSucceeded as one statement (PostgreSQL)
	finishPG   string // Finish on PostgreSQL
	succeedPG  string // FinishSucceeded on PostgreSQL
}

// succeededTypes are the columns FinishSucceeded adds to each row: the attempt's line and
// its health rollup's hour and bucket.
var succeededTypes = []string{"INTEGER", "TIMESTAMPTZ", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT", "TIMESTAMPTZ", "INTEGER"}

func newFinishStatements(db *sqldb.DB) finishStatements {
	f := finishStatements{
		update: `UPDATE webhook_deliveries SET status = v.column5, attempts = v.column6, cycle_attempts = v.column7,
		cycle_failed_at = v.column8, next_attempt_at = v.column9, last_attempt_at = v.column10, last_status = v.column11,
		last_error = v.column12, updated_at = v.column13, lease_until = NULL, lease_token = ''
		FROM (%s) AS v
		WHERE webhook_deliveries.workspace_id = v.column1 AND webhook_deliveries.id = v.column2
		AND webhook_deliveries.lease_token = v.column3 AND webhook_deliveries.cycle_attempts = v.column4
		RETURNING %s`,
		oneTripPG: db.Dialect == sqldb.Postgres,
		valueTypes: []string{"TEXT", "TEXT", "TEXT", "INTEGER", "TEXT", "INTEGER", "INTEGER", "TIMESTAMPTZ",
			"TIMESTAMPTZ", "TIMESTAMPTZ", "INTEGER", "TEXT", "TIMESTAMPTZ"},
	}
	if f.oneTripPG {
		f.finishPG = db.Rebind(fmt.Sprintf(f.update, unnestRows(f.valueTypes), "webhook_deliveries.id"))
		f.succeedPG = db.Rebind(succeededStatement(fmt.Sprintf(f.update, unnestRows(append(slices.Clone(f.valueTypes), succeededTypes...)),
			succeededReturning)))
	}
	return f
}

// succeededReturning is what FinishSucceeded's update returns of each saved delivery: its
// key, its attempt's line and its health rollup's hour and bucket.
const succeededReturning = `webhook_deliveries.id, webhook_deliveries.workspace_id, webhook_deliveries.subscription_id,
		v.column14 AS number, v.column15 AS attempted_at, v.column16 AS status_code, v.column17 AS latency_ms,
		v.column18 AS response, v.column19 AS error, v.column20 AS outcome, v.column21 AS hour, v.column22 AS bucket`

// succeededStatement is FinishSucceeded's one statement around update (the saved
// deliveries). The endpoints' ids as an array keep the streaks' UPDATE on the primary key
// whatever the statistics; EXISTS limits it to endpoints with a delivery saved.
func succeededStatement(update string) string {
	return `WITH saved AS (` + update + `),
		logged AS (INSERT INTO webhook_attempts (delivery_id, number, workspace_id, subscription_id, attempted_at,
			status_code, latency_ms, response, error, outcome)
			SELECT id, number, workspace_id, subscription_id, attempted_at, status_code, latency_ms, response, error, outcome FROM saved),
		healthy AS (UPDATE webhook_subscriptions SET failing_since = NULL
			WHERE id = ANY (CAST(? AS TEXT[])) AND failing_since IS NOT NULL
			AND EXISTS (SELECT 1 FROM saved WHERE saved.workspace_id = webhook_subscriptions.workspace_id
				AND saved.subscription_id = webhook_subscriptions.id) RETURNING id),
		health AS (` + healthOfSaved + `),
		` + forwardCTE + `
		SELECT id FROM saved`
}

// Finish saves a batch of attempted deliveries with one UPDATE ... FROM (the rows),
// without reading them first: the caller computed each new state from its claimed copy.
// A row is written only while its token holds the lease (so a result is recorded once
// per lease, and never after another instance took the delivery over) and its
// cycle_attempts is still the claimed one (a resend in flight resets it; the caller then
// re-reads). RETURNING tells which rows were written.
func (r *Dispatch) Finish(ctx context.Context, fs []webhooks.Finished) ([]bool, error) {
	saved := make([]bool, len(fs))
	batch, at := distinct(fs)
	if len(batch) == 0 {
		return saved, nil
	}
	stmt, args := r.finished.finishPG, finishArgs(batch, nil)
	if r.finished.oneTripPG {
		args = columnArrays(args, r.finished.valueTypes)
	} else {
		stmt = r.db.Rebind(fmt.Sprintf(r.finished.update, r.db.Values(len(batch), r.finished.valueTypes...), "webhook_deliveries.id"))
	}
	var ids []string
	if err := r.db.Write(ctx).SelectContext(ctx, &ids, stmt, args...); err != nil {
		return nil, fmt.Errorf("finish deliveries: %w", err)
	}
	for _, id := range ids {
		saved[at[id]] = true
	}
	return saved, nil
}

// FinishSucceeded is Finish for successful attempts, with the saved ones' lines logged,
// counted in their endpoints' health and their failing streaks ended in the same atomic write. On PostgreSQL that is
// one statement, so a batch of successes costs one round trip outside a transaction (it
// was five: BEGIN, the UPDATE, the attempts' INSERT, the streaks' UPDATE, COMMIT); SQLite
// runs the three statements in a transaction.
func (r *Dispatch) FinishSucceeded(ctx context.Context, fs []webhooks.Finished, as []webhooks.Attempt) ([]bool, error) {
	if !r.finished.oneTripPG {
		return r.finishSucceededInTx(ctx, fs, as)
	}
	saved := make([]bool, len(fs))
	batch, at := distinct(fs)
	if len(batch) == 0 {
		return saved, nil
	}
	lines := make([]webhooks.Attempt, len(batch))
	var endpoints []string
	for i, f := range batch {
		lines[i] = as[at[f.Delivery.ID]]
		if !slices.Contains(endpoints, f.Delivery.SubscriptionID) {
			endpoints = append(endpoints, f.Delivery.SubscriptionID)
		}
	}
	args := columnArrays(finishArgs(batch, lines), append(slices.Clone(r.finished.valueTypes), succeededTypes...))
	args = append(args, endpoints)
	var ids []string
	if err := r.db.Write(ctx).SelectContext(ctx, &ids, r.finished.succeedPG, args...); err != nil {
		return nil, fmt.Errorf("finish deliveries: %w", err)
	}
	for _, id := range ids {
		saved[at[id]] = true
	}
	return saved, nil
}

// finishSucceededInTx is FinishSucceeded as three statements in one transaction.
func (r *Dispatch) finishSucceededInTx(ctx context.Context, fs []webhooks.Finished, as []webhooks.Attempt) ([]bool, error) {
	var saved []bool
	err := r.db.WithinTx(ctx, func(ctx context.Context) error {
		var err error
		if saved, err = r.Finish(ctx, fs); err != nil {
			return err
		}
		var logged []webhooks.Attempt
		healthy := map[string][]string{} // workspace: endpoints
		var workspaces []string
		for i, ok := range saved {
			if !ok {
				continue
			}
			logged = append(logged, as[i])
			ws, id := fs[i].Delivery.WorkspaceID, fs[i].Delivery.SubscriptionID
			if _, seen := healthy[ws]; !seen {
				workspaces = append(workspaces, ws)
			}
			if !slices.Contains(healthy[ws], id) {
				healthy[ws] = append(healthy[ws], id)
			}
		}
		if err := insertAttempts(ctx, r.db, logged); err != nil {
			return err
		}
		for _, ws := range workspaces {
			if err := markHealthy(ctx, r.db, ws, healthy[ws]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return saved, nil
}

// distinct keeps the first of each delivery (a delivery is saved once per batch), with
// each kept delivery's index in fs.
func distinct(fs []webhooks.Finished) ([]webhooks.Finished, map[string]int) {
	at := make(map[string]int, len(fs))
	batch := make([]webhooks.Finished, 0, len(fs))
	for i, f := range fs {
		if _, dup := at[f.Delivery.ID]; !dup {
			at[f.Delivery.ID] = i
			batch = append(batch, f)
		}
	}
	return batch, at
}

// finishArgs are the VALUES rows' arguments: each delivery's key, lease and new state, then
// its attempt line's columns when lines is set.
func finishArgs(batch []webhooks.Finished, lines []webhooks.Attempt) []any {
	args := make([]any, 0, len(batch)*20)
	for i, f := range batch {
		d := f.Delivery
		args = append(args, d.WorkspaceID, d.ID, f.Token, f.Cycle, string(d.Status), d.Attempts, d.CycleAttempts,
			d.CycleFailedAt, d.NextAttemptAt, d.LastAttemptAt, d.LastStatus, d.LastError, d.UpdatedAt)
		if lines != nil {
			a := lines[i]
			args = append(args, a.Number, a.At, a.StatusCode, a.Latency.Milliseconds(), a.Response, a.Error, string(a.Outcome),
				a.At.UTC().Truncate(time.Hour), webhooks.BucketOf(a.Latency)) // the health rollup's row
		}
	}
	return args
}
