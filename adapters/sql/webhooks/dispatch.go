package webhooks

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// claimCandidates is how many due rows a claim looks at per delivery it may take, so
// that endpoints at their concurrency limit do not hide the others.
const claimCandidates = 4

// Dispatch leases due deliveries to one dispatcher at a time. The claim is the
// one statement that spans workspaces (the dispatcher serves them all); it matches each
// delivery to its endpoint on workspace_id, and every later statement is scoped by it.
// The claim seeks on the claimable index in order and stops after LIMIT rows, whatever the
// statistics say (docs/webhooks.md, "Plans that do not depend on statistics").
type Dispatch struct {
	sealing
	db                             *sqldb.DB
	anyDue, leased, complete, free string
	claimHead, claimTail           string // around the VALUES list of endpoints' room
	sparesWriter                   bool   // run anyDue first
	fan                            fanOutStatements
	finished                       finishStatements
}

// NewDispatch prepares the statements for db's dialect.
func NewDispatch(db *sqldb.DB, box Sealer) *Dispatch {
	// PostgreSQL: lock the candidate rows, skipping the ones another instance is claiming.
	// SQLite: the claim is the only writer, nothing to skip.
	skipLocked := ""
	if db.Dialect == sqldb.Postgres {
		skipLocked = " FOR UPDATE OF d SKIP LOCKED"
	}
	endpoint := func(col string) string {
		return `(SELECT s.` + col + ` FROM webhook_subscriptions s
			WHERE s.workspace_id = webhook_deliveries.workspace_id AND s.id = webhook_deliveries.subscription_id) AS endpoint_` + col
	}
	d := &Dispatch{
		sealing: sealing{box}, db: db, fan: newFanOutStatements(db), finished: newFinishStatements(db),
		// A read that finds nothing due spares SQLite's single writer a claim. PostgreSQL
		// does not need it: a claim that finds nothing writes nothing.
		// ORDER BY keeps the planner on the due index (a LIMIT 1 alone invites a table scan).
		sparesWriter: db.Dialect == sqldb.SQLite,
		anyDue: db.Rebind(`SELECT COUNT(*) FROM (SELECT 1 FROM webhook_deliveries
			WHERE next_attempt_at <= ? AND gated = FALSE AND (lease_until IS NULL OR lease_until <= ?)
			ORDER BY next_attempt_at, id LIMIT 1) AS due`),
		// One statement: take the due candidates in order (locked), number them per endpoint,
		// keep those within their endpoint's room (the VALUES list; PerEndpoint for the
		// others) up to the limit, lease them, and return them with their endpoint.
		//
		// Written so that every plan is the seek, with or without statistics: the range alone
		// implies the claimable index's predicate (next_attempt_at IS NOT NULL: pending), and
		// the endpoint test is a correlated subquery with <>, which the planner can neither
		// turn into a join nor guess to be rare. With EXISTS and status = 'pending', a
		// database without statistics guessed one due row, joined every endpoint or sorted
		// every due row (51 ms for 64 deliveries among a million rows).
		claimHead: `WITH due AS (SELECT d.id, d.subscription_id, d.next_attempt_at FROM webhook_deliveries d
			WHERE d.next_attempt_at <= ? AND d.gated = FALSE AND (d.lease_until IS NULL OR d.lease_until <= ?)
			AND (SELECT s.status FROM webhook_subscriptions s
				WHERE s.workspace_id = d.workspace_id AND s.id = d.subscription_id) <> 'disabled'
			ORDER BY d.next_attempt_at, d.id LIMIT ?` + skipLocked + `),
			ranked AS (SELECT due.id, due.next_attempt_at, COALESCE(room.column2, ?) AS room,
				ROW_NUMBER() OVER (PARTITION BY due.subscription_id ORDER BY due.next_attempt_at, due.id) AS k
				FROM due LEFT JOIN (`,
		claimTail: `) AS room ON room.column1 = due.subscription_id),
			taken AS (SELECT id FROM ranked WHERE k <= room ORDER BY next_attempt_at, id LIMIT ?)
			UPDATE webhook_deliveries SET lease_until = ?, lease_token = ? WHERE id IN (SELECT id FROM taken)
			RETURNING ` + deliveryColumns + `, trace_parent, ` + endpoint("url") + `, ` + endpoint("secret_sealed") + `,
			` + endpoint("previous_sealed") + `, ` + endpoint("previous_expires_at"),
		leased: db.Rebind(`SELECT ` + deliveryColumns + ` FROM webhook_deliveries
			WHERE workspace_id = ? AND id = ? AND lease_token = ?` + db.ForUpdate()),
		complete: db.Rebind(`UPDATE webhook_deliveries SET status = ?, attempts = ?, cycle_attempts = ?, cycle_failed_at = ?,
			next_attempt_at = ?, last_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ?, lease_until = NULL, lease_token = ''
			WHERE workspace_id = ? AND id = ? AND lease_token = ?`),
		free: db.Rebind(`UPDATE webhook_deliveries SET lease_until = NULL, lease_token = '' WHERE workspace_id = ? AND id = ? AND lease_token = ?`),
	}
	d.fan.held = sqldb.NewDeferred(d.writeHeld) // one per Dispatch: its items flush together
	return d
}

// claimedRow is a leased delivery with what sending needs of its endpoint.
type claimedRow struct {
	deliveryRow
	TraceParent       string     `db:"trace_parent"`
	URL               string     `db:"endpoint_url"`
	SecretSealed      []byte     `db:"endpoint_secret_sealed"`
	PreviousSealed    []byte     `db:"endpoint_previous_sealed"`
	PreviousExpiresAt *time.Time `db:"endpoint_previous_expires_at"`
}

// ClaimDue leases up to limit deliveries due at now until until, taking at most
// room.Of(subscriptionID) per endpoint, with one statement. The lease survives a crash
// only until it expires: then another instance sends the delivery again (at least once).
func (r *Dispatch) ClaimDue(ctx context.Context, now, until time.Time, token string, limit int, room webhooks.Room) ([]webhooks.Lease, error) {
	if limit <= 0 {
		return nil, nil
	}
	if r.sparesWriter {
		var due int
		if err := r.db.Read(ctx).GetContext(ctx, &due, r.anyDue, now, now); err != nil {
			return nil, fmt.Errorf("claim deliveries: %w", err)
		}
		if due == 0 {
			return nil, nil
		}
	}
	args := []any{now, now, limit * claimCandidates, room.PerEndpoint, "", 0} // a dummy row: VALUES is never empty
	for id, n := range room.InFlight {
		args = append(args, id, room.PerEndpoint-n)
	}
	stmt := r.db.Rebind(r.claimHead + r.db.Values(len(args)/2-2, "TEXT", "INTEGER") + r.claimTail)
	args = append(args, limit, until, token)
	var rows []claimedRow
	if err := r.db.Write(ctx).SelectContext(ctx, &rows, stmt, args...); err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	slices.SortFunc(rows, func(a, b claimedRow) int {
		return cmp.Or(a.NextAttemptAt.Compare(*b.NextAttemptAt), cmp.Compare(a.ID, b.ID))
	})
	endpoints := map[string]*webhooks.Subscription{}
	out := make([]webhooks.Lease, 0, len(rows))
	for _, row := range rows {
		sub, ok := endpoints[row.SubscriptionID]
		if !ok {
			sub = r.endpoint(row)
			endpoints[row.SubscriptionID] = sub
		}
		out = append(out, webhooks.Lease{Delivery: row.delivery(), Endpoint: sub, Token: token, Until: until, Trace: row.TraceParent})
	}
	return out, nil
}

// endpoint opens the claimed row's endpoint secrets. One that cannot be opened fails
// only its own deliveries (the lease says SecretUnreadable), never the claim.
func (r *Dispatch) endpoint(row claimedRow) *webhooks.Subscription {
	s := &webhooks.Subscription{
		ID: row.SubscriptionID, WorkspaceID: row.WorkspaceID, URL: row.URL, Status: webhooks.Enabled,
		PreviousExpiresAt: platform.UTCPtr(row.PreviousExpiresAt),
	}
	r.openSecrets(s, row.SecretSealed, row.PreviousSealed)
	return s
}

// GetLeased returns the delivery locked for update while token still holds its lease,
// else NotFound.
func (r *Dispatch) GetLeased(ctx context.Context, workspaceID, id, token string) (*webhooks.Delivery, error) {
	var row deliveryRow
	err := r.db.Write(ctx).GetContext(ctx, &row, r.leased, workspaceID, id, token)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("delivery %s is no longer leased by this dispatcher", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get leased delivery: %w", err)
	}
	return row.delivery(), nil
}

// Complete saves d and ends token's lease.
func (r *Dispatch) Complete(ctx context.Context, d *webhooks.Delivery, token string) error {
	_, err := r.db.Write(ctx).ExecContext(ctx, r.complete, string(d.Status), d.Attempts, d.CycleAttempts, d.CycleFailedAt,
		d.NextAttemptAt, d.LastAttemptAt, d.LastStatus, d.LastError, d.UpdatedAt, d.WorkspaceID, d.ID, token)
	if err != nil {
		return fmt.Errorf("complete delivery: %w", err)
	}
	return nil
}

// Release gives a lease back unused, so that the delivery is claimable at once.
func (r *Dispatch) Release(ctx context.Context, workspaceID, id, token string) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.free, workspaceID, id, token); err != nil {
		return fmt.Errorf("release delivery: %w", err)
	}
	return nil
}
