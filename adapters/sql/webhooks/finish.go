package webhooks

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Finish saves a batch of attempted deliveries with one UPDATE ... FROM (VALUES ...),
// without reading them first: the caller computed each new state from its claimed copy.
// A row is written only while its token holds the lease (so a result is recorded once
// per lease, and never after another instance took the delivery over) and its
// cycle_attempts is still the claimed one (a resend in flight resets it; the caller then
// re-reads). RETURNING tells which rows were written.
func (r *Dispatch) Finish(ctx context.Context, fs []webhooks.Finished) ([]bool, error) {
	saved := make([]bool, len(fs))
	at := make(map[string]int, len(fs))
	batch := make([]webhooks.Finished, 0, len(fs))
	for i, f := range fs {
		if _, dup := at[f.Delivery.ID]; !dup {
			at[f.Delivery.ID] = i
			batch = append(batch, f)
		}
	}
	if len(batch) == 0 {
		return saved, nil
	}
	stmt := r.db.Rebind(`UPDATE webhook_deliveries SET status = v.column5, attempts = v.column6, cycle_attempts = v.column7,
		cycle_failed_at = v.column8, next_attempt_at = v.column9, last_attempt_at = v.column10, last_status = v.column11,
		last_error = v.column12, updated_at = v.column13, lease_until = NULL, lease_token = ''
		FROM (` + r.db.Values(len(batch), "TEXT", "TEXT", "TEXT", "INTEGER", "TEXT", "INTEGER", "INTEGER", "TIMESTAMPTZ",
		"TIMESTAMPTZ", "TIMESTAMPTZ", "INTEGER", "TEXT", "TIMESTAMPTZ") + `) AS v
		WHERE webhook_deliveries.workspace_id = v.column1 AND webhook_deliveries.id = v.column2
		AND webhook_deliveries.lease_token = v.column3 AND webhook_deliveries.cycle_attempts = v.column4
		RETURNING id`)
	args := make([]any, 0, len(batch)*13)
	for _, f := range batch {
		d := f.Delivery
		args = append(args, d.WorkspaceID, d.ID, f.Token, f.Cycle, string(d.Status), d.Attempts, d.CycleAttempts,
			d.CycleFailedAt, d.NextAttemptAt, d.LastAttemptAt, d.LastStatus, d.LastError, d.UpdatedAt)
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
