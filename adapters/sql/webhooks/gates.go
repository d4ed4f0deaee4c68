package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// pacingColumns are read with every endpoint (webhookColumns holds the others).
const pacingColumns = `, rate_limit, ordered, paused_until`

// pacingRow is the part of an endpoint row its pacing fills.
type pacingRow struct {
	RateLimit   *int       `db:"rate_limit"`
	Ordered     bool       `db:"ordered"`
	PausedUntil *time.Time `db:"paused_until"`
}

func (p pacingRow) fill(s *webhooks.Subscription) {
	if p.RateLimit != nil {
		s.Pacing.RateLimit = *p.RateLimit
	}
	s.Pacing.Ordered, s.PausedUntil = p.Ordered, platform.UTCPtr(p.PausedUntil)
}

// endpointGated is an inserted delivery's gate: its endpoint's. It is NULL for an endpoint
// never stored, which the NOT NULL column refuses: on PostgreSQL, whose deliveries carry no
// foreign key (migration 00031), that is what refuses a delivery to no endpoint.
const endpointGated = `(SELECT s.gated FROM webhook_subscriptions s WHERE s.id = ?)`

// currentGate is an updated delivery's gate: its endpoint's.
const currentGate = `COALESCE((SELECT s.gated FROM webhook_subscriptions s WHERE s.id = webhook_deliveries.subscription_id), FALSE)`

// maxGatedPerClaim bounds the gated endpoints one claim looks at.
const maxGatedPerClaim = 100

// Gates paces the deliveries of gated endpoints (docs/webhook-receivers.md, "Rate limit, order,
// backlog"). The state every instance shares is in the endpoint row (rate_next_at: the
// next free send slot; paused_until), and a claim takes it under the row's lock, so two
// instances never hand out the same slot, nor two attempts of an ordered endpoint. The
// statements below serve SQLite's claim and every dialect's Pause, SetPacing and
// BringForward; PostgreSQL claims with gatedClaimPostgres.
type Gates struct {
	sealing
	db                                      *sqldb.DB
	candidates, lock, head, due, lease      string
	advance, open, openDeliveries, setGate  string
	pause, gateDeliveries, setPacing, unset string
	claimPostgres                           string // the whole claim, one statement
}

// NewGates prepares the statements for db's dialect.
func NewGates(db *sqldb.DB, box Sealer) *Gates {
	return &Gates{
		sealing: sealing{box}, db: db, claimPostgres: gatedClaimPostgres(),
		// Gated endpoints with something to do: a due delivery not leased, or a gate that
		// only a pause held and that has ended. The partial index holds gated endpoints only,
		// so with none this reads nothing.
		candidates: db.Rebind(`SELECT s.id, s.workspace_id FROM webhook_subscriptions s
			WHERE s.gated = TRUE AND s.status <> 'disabled'
			AND ((s.rate_limit IS NULL AND s.ordered = FALSE AND (s.paused_until IS NULL OR s.paused_until <= ?))
				OR ((s.paused_until IS NULL OR s.paused_until <= ?) AND (s.rate_next_at IS NULL OR s.rate_next_at < ?)
					AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.gated = TRUE
						AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?))))
			ORDER BY s.id LIMIT ` + fmt.Sprint(maxGatedPerClaim)),
		lock: db.Rebind(`SELECT id, workspace_id, url, secret_sealed, previous_sealed, previous_expires_at, status, rate_next_at` +
			pacingColumns + ` FROM webhook_subscriptions WHERE workspace_id = ? AND id = ? AND gated = TRUE`),
		// An ordered endpoint's earliest pending delivery, in event order.
		head: db.Rebind(`SELECT ` + deliveryColumns + `, lease_until, trace_parent FROM webhook_deliveries
			WHERE subscription_id = ? AND next_attempt_at IS NOT NULL AND gated = TRUE ORDER BY created_at, id LIMIT 1`),
		due: db.Rebind(`SELECT ` + deliveryColumns + `, lease_until, trace_parent FROM webhook_deliveries
			WHERE subscription_id = ? AND next_attempt_at IS NOT NULL AND gated = TRUE AND next_attempt_at <= ?
			AND (lease_until IS NULL OR lease_until <= ?) ORDER BY created_at, id LIMIT ?`),
		lease:   `UPDATE webhook_deliveries SET lease_until = ?, lease_token = ? WHERE workspace_id = ? AND id IN (?)`, // expanded by sqlx.In
		advance: db.Rebind(`UPDATE webhook_subscriptions SET rate_next_at = ?, paused_until = NULL WHERE workspace_id = ? AND id = ?`),
		open: db.Rebind(`UPDATE webhook_subscriptions SET gated = FALSE, paused_until = NULL, rate_next_at = NULL
			WHERE workspace_id = ? AND id = ?`),
		openDeliveries: db.Rebind(`UPDATE webhook_deliveries SET gated = FALSE
			WHERE workspace_id = ? AND subscription_id = ? AND next_attempt_at IS NOT NULL AND gated = TRUE`),
		setGate: db.Rebind(`UPDATE webhook_deliveries SET gated = ?
			WHERE workspace_id = ? AND subscription_id = ? AND next_attempt_at IS NOT NULL AND gated <> ?`),
		pause: db.Rebind(`UPDATE webhook_subscriptions SET gated = TRUE,
			paused_until = CASE WHEN paused_until IS NULL OR paused_until < ? THEN ? ELSE paused_until END
			WHERE workspace_id = ? AND id = ?`),
		// Deliveries in flight (leased) are left to their holders: no lock waits on them.
		gateDeliveries: db.Rebind(`UPDATE webhook_deliveries SET gated = TRUE
			WHERE workspace_id = ? AND subscription_id = ? AND next_attempt_at IS NOT NULL AND gated = FALSE AND lease_token = ''`),
		setPacing: db.Rebind(`UPDATE webhook_subscriptions SET rate_limit = ?, ordered = ?, gated = ? WHERE workspace_id = ? AND id = ?`),
		unset:     `UPDATE webhook_subscriptions SET paused_until = NULL WHERE workspace_id = ? AND id IN (?) AND paused_until IS NOT NULL`,
	}
}

type gatedEndpointRow struct {
	ID                string     `db:"id"`
	WorkspaceID       string     `db:"workspace_id"`
	URL               string     `db:"url"`
	SecretSealed      []byte     `db:"secret_sealed"`
	PreviousSealed    []byte     `db:"previous_sealed"`
	PreviousExpiresAt *time.Time `db:"previous_expires_at"`
	Status            string     `db:"status"`
	RateNextAt        *time.Time `db:"rate_next_at"`
	pacingRow
}

type gatedDeliveryRow struct {
	deliveryRow
	LeaseUntil  *time.Time `db:"lease_until"`
	TraceParent string     `db:"trace_parent"`
}

// ClaimGated implements webhooks.Gates. On PostgreSQL it is one statement
// (gatedClaimPostgres). On SQLite, whose one writer claims in-process, a cheap read finds
// the gated endpoints with something to do (none: no transaction); each is then locked and
// its slots taken in one transaction, a statement a step.
func (g *Gates) ClaimGated(ctx context.Context, now, until time.Time, token string, limit int, room webhooks.Room, horizon time.Duration) ([]webhooks.Lease, error) {
	if limit <= 0 {
		return nil, nil
	}
	if g.db.Dialect == sqldb.Postgres {
		return g.claimGatedPostgres(ctx, now, until, token, limit, room, horizon)
	}
	var ids []struct {
		ID          string `db:"id"`
		WorkspaceID string `db:"workspace_id"`
	}
	if err := g.db.Read(ctx).SelectContext(ctx, &ids, g.candidates, now, now, now.Add(horizon), now, now); err != nil {
		return nil, fmt.Errorf("claim gated deliveries: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var out []webhooks.Lease
	err := g.db.WithinTx(ctx, func(ctx context.Context) error {
		out = out[:0]
		for _, c := range ids {
			if len(out) >= limit {
				break
			}
			ls, err := g.claimEndpoint(ctx, c.WorkspaceID, c.ID, now, until, token, min(limit-len(out), room.Of(c.ID)), horizon)
			if err != nil {
				return err
			}
			out = append(out, ls...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim gated deliveries: %w", err)
	}
	return out, nil
}

// claimEndpoint takes what one gated endpoint allows, up to n deliveries (SQLite: the
// transaction holds the one writer, which locks the row).
func (g *Gates) claimEndpoint(ctx context.Context, ws, id string, now, until time.Time, token string, n int, horizon time.Duration) ([]webhooks.Lease, error) {
	var rows []gatedEndpointRow
	if err := g.db.Write(ctx).SelectContext(ctx, &rows, g.lock, ws, id); err != nil || len(rows) == 0 {
		return nil, err // none: another instance holds it, or it is no longer gated
	}
	row := rows[0]
	sub := &webhooks.Subscription{ID: row.ID, WorkspaceID: row.WorkspaceID, URL: row.URL, Status: webhooks.Status(row.Status),
		PreviousExpiresAt: platform.UTCPtr(row.PreviousExpiresAt)}
	row.fill(sub)
	paused := sub.PausedUntil != nil && sub.PausedUntil.After(now)
	if sub.Status == webhooks.Disabled || paused || n <= 0 {
		return nil, nil
	}
	if sub.Pacing.RateLimit == 0 && !sub.Pacing.Ordered {
		// Only a pause gated it, and it has ended: back to the open claim.
		if err := g.db.Exec(ctx, "open webhook gate", g.open, ws, id); err != nil {
			return nil, err
		}
		return nil, g.db.Exec(ctx, "open webhook gate", g.openDeliveries, ws, id)
	}
	g.openSecrets(sub, row.SecretSealed, row.PreviousSealed)
	base, step := now, sub.Pacing.Interval()
	if step > 0 {
		if row.RateNextAt != nil && row.RateNextAt.After(now) {
			base = row.RateNextAt.UTC()
		}
		end := now.Add(horizon)
		if !base.Before(end) {
			return nil, nil
		}
		n = min(n, int((end.Sub(base)+step-1)/step))
	}
	var ds []gatedDeliveryRow
	if sub.Pacing.Ordered {
		// One at a time: the earliest pending delivery, once due, while nothing of the
		// endpoint is leased (a lease, even of a crashed instance, holds the line until it
		// expires).
		if err := g.db.Write(ctx).SelectContext(ctx, &ds, g.head, id); err != nil {
			return nil, err
		}
		if len(ds) == 0 || ds[0].NextAttemptAt.After(now) || (ds[0].LeaseUntil != nil && ds[0].LeaseUntil.After(now)) {
			return nil, nil
		}
	} else if err := g.db.Write(ctx).SelectContext(ctx, &ds, g.due, id, now, now, n); err != nil {
		return nil, err
	}
	if len(ds) == 0 && sub.PausedUntil == nil {
		return nil, nil
	}
	ids := make([]string, len(ds))
	for i, d := range ds {
		ids[i] = d.ID
	}
	if len(ids) > 0 {
		stmt, args, err := sqlx.In(g.lease, until, token, ws, ids)
		if err != nil {
			return nil, fmt.Errorf("lease gated deliveries: %w", err)
		}
		if err := g.db.Exec(ctx, "lease gated deliveries", g.db.Rebind(stmt), args...); err != nil {
			return nil, err
		}
	}
	out := make([]webhooks.Lease, 0, len(ds))
	for i, d := range ds {
		l := webhooks.Lease{Delivery: d.delivery(), Endpoint: sub, Token: token, Until: until, Trace: d.TraceParent}
		if step > 0 {
			l.NotBefore = base.Add(time.Duration(i) * step)
		}
		out = append(out, l)
	}
	if len(out) > 0 || sub.PausedUntil != nil {
		next := row.RateNextAt
		if step > 0 && len(out) > 0 {
			t := base.Add(time.Duration(len(out)) * step)
			next = &t
		}
		if err := g.db.Exec(ctx, "advance webhook slot", g.advance, next, ws, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Pause implements webhooks.Gates: the endpoint and its pending deliveries are gated
// until until (or a later pause already set).
func (g *Gates) Pause(ctx context.Context, workspaceID, id string, until time.Time) error {
	if err := g.db.Exec(ctx, "pause webhook", g.pause, until, until, workspaceID, id); err != nil {
		return err
	}
	return g.db.Exec(ctx, "pause webhook", g.gateDeliveries, workspaceID, id)
}

// SetPacing stores the endpoint's pacing and moves its pending deliveries to the claim
// that now applies (gated: the endpoint's pacing or pause).
func (g *Gates) SetPacing(ctx context.Context, s *webhooks.Subscription) error {
	var rate *int
	if s.Pacing.RateLimit > 0 {
		rate = &s.Pacing.RateLimit
	}
	gated := s.Gated()
	if err := g.db.Exec(ctx, "set webhook pacing", g.setPacing, rate, s.Pacing.Ordered, gated, s.WorkspaceID, s.ID); err != nil {
		return err
	}
	return g.db.Exec(ctx, "set webhook pacing", g.setGate, gated, s.WorkspaceID, s.ID, gated)
}

// BringForward implements webhooks.Gates.
func (g *Gates) BringForward(ctx context.Context, workspaceID string, ids []string, now time.Time, lift bool) (int, error) {
	n, err := bringForward(ctx, g.db, workspaceID, ids, now)
	if err != nil || !lift || len(ids) == 0 {
		return n, err
	}
	stmt, args, err := sqlx.In(g.unset, workspaceID, ids)
	if err != nil {
		return 0, fmt.Errorf("lift webhook pause: %w", err)
	}
	return n, g.db.Exec(ctx, "lift webhook pause", g.db.Rebind(stmt), args...)
}

// forwardCTE is bringForward within FinishSucceeded's statement, for the endpoints whose
// failing streak the statement ended (healthy): the ids as an array keep it on the
// retrying index whatever the statistics. The saved deliveries are leased, so untouched.
const forwardCTE = `forward AS (UPDATE webhook_deliveries SET next_attempt_at = last_attempt_at
			WHERE subscription_id = ANY (ARRAY(SELECT id FROM healthy)) AND next_attempt_at IS NOT NULL
			AND cycle_attempts > 0 AND next_attempt_at > last_attempt_at AND lease_token = '')`

// bringForward makes the waiting retries of the endpoints due at once: due at their last
// attempt's time, so that they go first and keep their order. Leased deliveries (in
// flight) are left alone. With a zero now every retry not already due at its last attempt
// moves; else only those due after now. It reads the retrying index (a pending delivery
// is due later than its creation only after a failure).
func bringForward(ctx context.Context, db *sqldb.DB, workspaceID string, ids []string, now time.Time) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	q := `UPDATE webhook_deliveries SET next_attempt_at = last_attempt_at
		WHERE workspace_id = ? AND subscription_id IN (?) AND next_attempt_at IS NOT NULL AND cycle_attempts > 0
		AND next_attempt_at > last_attempt_at AND lease_token = ''`
	args := []any{workspaceID, ids}
	if !now.IsZero() {
		q += ` AND next_attempt_at > ?`
		args = append(args, now)
	}
	stmt, qargs, err := sqlx.In(q, args...)
	if err != nil {
		return 0, fmt.Errorf("bring retries forward: %w", err)
	}
	res, err := db.Write(ctx).ExecContext(ctx, db.Rebind(stmt), qargs...)
	if err != nil {
		return 0, fmt.Errorf("bring retries forward: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("bring retries forward: %w", err)
	}
	return int(n), nil
}
