package webhooks

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// gatedClaimPostgres returns the whole gated claim on PostgreSQL, one statement (one round trip,
// no explicit transaction), for up to maxGatedPerClaim endpoints:
//   - cand locks the gated endpoints with something to do (SKIP LOCKED: another instance is
//     claiming them). FOR UPDATE returns each row as it is once locked (a version committed
//     after the statement's snapshot is re-read and its conditions checked again), so the
//     slots below start from the latest rate_next_at.
//   - paced/taking: an endpoint takes at most its room (the dispatcher's per-endpoint
//     limit less what it has in flight) and, rate-limited, its free slots before $2 (1/rate
//     apart from max(now, rate_next_at)); ordered, its earliest pending delivery alone.
//   - picked reads them on the gated index in event order, the first $5 over all endpoints
//     (endpoint id order, as the per-endpoint loop took them). The writes below take their
//     rows by id arrays (= ANY (ARRAY(...))), which keep them on the primary key and the
//     gated index whatever the statistics.
//   - leased leases them, checking each row again: a delivery leased or finished by another
//     instance after this statement's snapshot (it then held the endpoint's lock) fails
//     the check on its latest version and is left out. So no slot and no ordered head is
//     handed out twice.
//   - advanced moves rate_next_at past the slots handed out (counted from leased) and
//     clears an ended pause; opened puts an endpoint that only a pause gated, now ended,
//     back on the open claim with its deliveries.
//
// $1 now, $2 now+horizon, $3 lease until, $4 token, $5 limit, $6 per-endpoint room,
// $7/$8 the endpoints in flight and how many.
func gatedClaimPostgres() string {
	return `WITH cand AS (
		SELECT s.id, s.workspace_id, s.url, s.secret_sealed, s.previous_sealed, s.previous_expires_at, s.status,
			s.rate_limit, s.ordered, s.paused_until, s.rate_next_at
		FROM webhook_subscriptions s
		WHERE s.gated = TRUE AND s.status <> 'disabled' AND (s.paused_until IS NULL OR s.paused_until <= $1)
		AND ((s.rate_limit IS NULL AND s.ordered = FALSE)
			OR ((s.rate_next_at IS NULL OR s.rate_next_at < $2)
				AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.gated = TRUE
					AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1))))
		ORDER BY s.id LIMIT ` + fmt.Sprint(maxGatedPerClaim) + ` FOR UPDATE SKIP LOCKED),
	paced AS (
		SELECT c.*, GREATEST(c.rate_next_at, CAST($1 AS TIMESTAMPTZ)) AS base,
			CASE WHEN c.rate_limit IS NULL THEN 0 ELSE (999999 + c.rate_limit) / c.rate_limit END AS step_us,
			CAST($6 AS INTEGER) - COALESCE((SELECT r.n FROM unnest(CAST($7 AS TEXT[]), CAST($8 AS INTEGER[])) AS r(id, n)
				WHERE r.id = c.id), 0) AS room
		FROM cand c WHERE c.rate_limit IS NOT NULL OR c.ordered = TRUE),
	taking AS (
		SELECT p.id, p.workspace_id, p.ordered, LEAST(p.room, CAST($5 AS INTEGER), CASE WHEN p.step_us = 0 THEN p.room
			ELSE CAST((CAST(EXTRACT(EPOCH FROM (CAST($2 AS TIMESTAMPTZ) - p.base)) * 1000000 AS BIGINT) + p.step_us - 1) / p.step_us AS INTEGER) END) AS take
		FROM paced p),
	picked AS (
		SELECT t.workspace_id, h.id, ROW_NUMBER() OVER (ORDER BY t.id, h.created_at, h.id) AS k
		FROM taking t CROSS JOIN LATERAL (
			SELECT d.id, d.created_at, d.next_attempt_at, d.lease_until FROM webhook_deliveries d
			WHERE d.subscription_id = t.id AND d.next_attempt_at IS NOT NULL AND d.gated = TRUE
			AND (t.ordered OR (d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)))
			ORDER BY d.created_at, d.id LIMIT CASE WHEN t.ordered THEN 1 ELSE t.take END) h
		WHERE t.take > 0 AND h.next_attempt_at <= $1 AND (h.lease_until IS NULL OR h.lease_until <= $1)),
	leased AS (
		UPDATE webhook_deliveries d SET lease_until = $3, lease_token = $4
		WHERE d.id = ANY (ARRAY(SELECT p.id FROM picked p WHERE p.k <= $5)) AND d.gated = TRUE
		AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
		RETURNING d.id, d.workspace_id, d.subscription_id, d.event_id, d.event_type, d.payload, d.status, d.attempts,
			d.cycle_attempts, d.cycle_failed_at, d.next_attempt_at, d.last_attempt_at, d.last_status, d.last_error,
			d.created_at, d.updated_at, d.lease_until, d.trace_parent),
	counted AS (
		SELECT p.id, p.base + (COUNT(l.id) * p.step_us) * INTERVAL '1 microsecond' AS next_at, COUNT(l.id) AS n, p.step_us, p.paused_until
		FROM paced p LEFT JOIN leased l ON l.subscription_id = p.id GROUP BY p.id, p.base, p.step_us, p.paused_until),
	advanced AS (
		UPDATE webhook_subscriptions s SET paused_until = NULL,
			rate_next_at = COALESCE((SELECT c.next_at FROM counted c WHERE c.id = s.id AND c.step_us > 0 AND c.n > 0), s.rate_next_at)
		WHERE s.id = ANY (ARRAY(SELECT c.id FROM counted c WHERE c.n > 0 OR c.paused_until IS NOT NULL))),
	opened AS (
		UPDATE webhook_subscriptions s SET gated = FALSE, paused_until = NULL, rate_next_at = NULL
		WHERE s.id = ANY (ARRAY(SELECT c.id FROM cand c WHERE c.rate_limit IS NULL AND c.ordered = FALSE))
		RETURNING s.id),
	opened_deliveries AS (
		UPDATE webhook_deliveries d SET gated = FALSE
		WHERE d.subscription_id = ANY (ARRAY(SELECT o.id FROM opened o)) AND d.next_attempt_at IS NOT NULL AND d.gated = TRUE)
	SELECT l.*, p.url AS endpoint_url, p.secret_sealed AS endpoint_secret_sealed, p.previous_sealed AS endpoint_previous_sealed,
		p.previous_expires_at AS endpoint_previous_expires_at, p.status AS endpoint_status, p.rate_limit, p.ordered,
		p.paused_until, p.base AS slot_base
	FROM leased l JOIN paced p ON p.id = l.subscription_id`
}

// gatedClaimRow is a delivery the statement leased, with its endpoint and first slot.
type gatedClaimRow struct {
	gatedDeliveryRow
	URL               string     `db:"endpoint_url"`
	SecretSealed      []byte     `db:"endpoint_secret_sealed"`
	PreviousSealed    []byte     `db:"endpoint_previous_sealed"`
	PreviousExpiresAt *time.Time `db:"endpoint_previous_expires_at"`
	Status            string     `db:"endpoint_status"`
	SlotBase          time.Time  `db:"slot_base"`
	pacingRow
}

// claimGatedPostgres is ClaimGated on PostgreSQL: gatedClaimPostgres, then each endpoint's
// leases in event order on its slots, 1/rate apart from the slot base.
func (g *Gates) claimGatedPostgres(ctx context.Context, now, until time.Time, token string, limit int, room webhooks.Room, horizon time.Duration) ([]webhooks.Lease, error) {
	ids, busy := make([]string, 0, len(room.InFlight)), make([]int32, 0, len(room.InFlight))
	for id, n := range room.InFlight {
		ids, busy = append(ids, id), append(busy, int32(min(n, room.PerEndpoint)))
	}
	var rows []gatedClaimRow
	if err := g.db.Write(ctx).SelectContext(ctx, &rows, g.claimPostgres, now, now.Add(horizon), until, token, limit,
		room.PerEndpoint, ids, busy); err != nil {
		return nil, fmt.Errorf("claim gated deliveries: %w", err)
	}
	slices.SortFunc(rows, func(a, b gatedClaimRow) int {
		return cmp.Or(cmp.Compare(a.SubscriptionID, b.SubscriptionID), a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	out := make([]webhooks.Lease, 0, len(rows))
	var sub *webhooks.Subscription
	slot := 0
	for _, row := range rows {
		if sub == nil || sub.ID != row.SubscriptionID {
			sub = &webhooks.Subscription{ID: row.SubscriptionID, WorkspaceID: row.WorkspaceID, URL: row.URL,
				Status: webhooks.Status(row.Status), PreviousExpiresAt: platform.UTCPtr(row.PreviousExpiresAt)}
			row.fill(sub)
			g.openSecrets(sub, row.SecretSealed, row.PreviousSealed)
			slot = 0
		}
		l := webhooks.Lease{Delivery: row.delivery(), Endpoint: sub, Token: token, Until: until, Trace: row.TraceParent}
		if step := sub.Pacing.Interval(); step > 0 {
			l.NotBefore = row.SlotBase.UTC().Add(time.Duration(slot) * step)
		}
		slot++
		out = append(out, l)
	}
	return out, nil
}
