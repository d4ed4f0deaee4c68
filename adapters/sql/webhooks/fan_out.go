package webhooks

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// fanOutStatements are the fan-out's statements. On PostgreSQL the fan-out of an event is
// held in memory (sqldb.Deferred) until just before its transaction commits, and then one
// statement writes the deliveries of every event held (a subscriber's batch): it reads
// the endpoints that want each event and inserts their deliveries. Without a transaction
// that defers, the event is written at once by the same statement. SQLite, whose
// statements are calls in the process, reads then inserts, at once.
type fanOutStatements struct {
	batch        string // PostgreSQL: endpoints and inserts of held events, with the ids drawn beforehand
	single       string // PostgreSQL: the same for one event (a publishing transaction's usual lot)
	endpoints    string // the workspace's enabled endpoints (the type is matched in Go)
	insert       string // one delivery, leased or not, unless the endpoint has one of the event
	hints        *endpointCounts
	held         *sqldb.Deferred[heldFan]
	singleWriter bool
}

// heldFan is an event whose deliveries wait for its transaction's commit, with the ids
// drawn for them and whom to tell once they are written.
type heldFan struct {
	f       webhooks.Fan
	trace   string        // the traceparent of the event's consumer (observe.TraceParent)
	ids     []string      // drawn for the first len(ids) endpoints
	newID   func() string // for endpoints beyond them
	written func(ctx context.Context, leases []webhooks.Lease)
}

// fanOutBatch bounds the events of one statement (a rebuild or a replay may hold more
// than a subscriber's batch).
const fanOutBatch = 500

func newFanOutStatements(db *sqldb.DB) fanOutStatements {
	return fanOutStatements{
		// Each held event is a row of e (its index i in the batch); s numbers, per event,
		// the endpoints that want its type in id order (k), read per event on the
		// workspace's index (a LATERAL subquery with a window function is not flattened
		// into a join, so no plan hashes the whole table, with or without statistics); n
		// gives the ids drawn for event i, one per k. An endpoint beyond its event's ids
		// gets none here and is inserted afterwards. RETURNING says which rows a conflict skipped (a replayed event). The
		// type test is PostgreSQL's strpos on the space-separated list, the same match as
		// containsField. The values every new delivery shares come from NewDelivery's
		// template ($9 to $15).
		batch: `WITH e AS (SELECT * FROM unnest(CAST($1 AS INTEGER[]), CAST($2 AS TEXT[]), CAST($3 AS TEXT[]),
				CAST($4 AS TEXT[]), CAST($5 AS BYTEA[]), CAST($6 AS TIMESTAMPTZ[]), CAST($7 AS TEXT[]),
				CAST($8 AS TIMESTAMPTZ[]), CAST($19 AS INTEGER[]), CAST($20 AS TEXT[])) AS e(i, ws, event_id, event_type, payload, at, token, until, version, trace)),
			s AS (SELECT e.i, w.* FROM e CROSS JOIN LATERAL (
				SELECT id, url, secret_sealed, previous_sealed, previous_expires_at, gated, ROW_NUMBER() OVER (ORDER BY id) AS k
				FROM webhook_subscriptions WHERE workspace_id = e.ws AND status = 'enabled' AND payload_version = e.version
					AND strpos(' ' || events || ' ', ' ' || e.event_type || ' ') > 0) w),
			n AS (SELECT * FROM unnest(CAST($16 AS INTEGER[]), CAST($17 AS INTEGER[]), CAST($18 AS TEXT[])) AS n(i, k, id)),
			added AS (INSERT INTO webhook_deliveries (` + deliveryColumns + `, lease_until, lease_token, trace_parent, gated)
				SELECT n.id, e.ws, s.id, e.event_id, e.event_type, e.payload, CAST($9 AS TEXT), CAST($10 AS INTEGER),
					CAST($11 AS INTEGER), CAST($12 AS TIMESTAMPTZ), e.at, CAST($13 AS TIMESTAMPTZ), CAST($14 AS INTEGER),
					CAST($15 AS TEXT), e.at, e.at, CASE WHEN e.token = '' OR s.gated THEN NULL ELSE e.until END,
					CASE WHEN s.gated THEN '' ELSE e.token END, e.trace, s.gated
				FROM s JOIN e ON e.i = s.i JOIN n ON n.i = s.i AND n.k = s.k
				ON CONFLICT (subscription_id, event_id) DO NOTHING RETURNING id)
			SELECT s.i, s.id, s.url, s.secret_sealed, s.previous_sealed, s.previous_expires_at, s.gated, s.k,
				COALESCE(added.id, '') AS delivery_id
			FROM s LEFT JOIN n ON n.i = s.i AND n.k = s.k LEFT JOIN added ON added.id = n.id ORDER BY s.i, s.k`,
		// batch for one event, with scalars: a plan PostgreSQL caches (generic) where the
		// batch's arrays are planned again at each run, which a statement per publishing
		// transaction would pay every time. $7 is the lease's end or NULL; $15 the ids drawn.
		single: `WITH s AS (SELECT id, url, secret_sealed, previous_sealed, previous_expires_at, gated, ROW_NUMBER() OVER (ORDER BY id) AS k
				FROM webhook_subscriptions WHERE workspace_id = CAST($1 AS TEXT) AND status = 'enabled'
					AND payload_version = CAST($16 AS INTEGER) AND strpos(' ' || events || ' ', ' ' || CAST($3 AS TEXT) || ' ') > 0),
			added AS (INSERT INTO webhook_deliveries (` + deliveryColumns + `, lease_until, lease_token, trace_parent, gated)
				SELECT (CAST($15 AS TEXT[]))[s.k], CAST($1 AS TEXT), s.id, CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS BYTEA),
					CAST($8 AS TEXT), CAST($9 AS INTEGER), CAST($10 AS INTEGER), CAST($11 AS TIMESTAMPTZ), CAST($5 AS TIMESTAMPTZ),
					CAST($12 AS TIMESTAMPTZ), CAST($13 AS INTEGER), CAST($14 AS TEXT), CAST($5 AS TIMESTAMPTZ), CAST($5 AS TIMESTAMPTZ),
					CASE WHEN s.gated THEN NULL ELSE CAST($7 AS TIMESTAMPTZ) END, CASE WHEN s.gated THEN '' ELSE CAST($6 AS TEXT) END,
					CAST($17 AS TEXT), s.gated
				FROM s WHERE s.k <= cardinality(CAST($15 AS TEXT[]))
				ON CONFLICT (subscription_id, event_id) DO NOTHING RETURNING id, subscription_id)
			SELECT 0 AS i, s.id, s.url, s.secret_sealed, s.previous_sealed, s.previous_expires_at, s.gated, s.k,
				COALESCE(added.id, '') AS delivery_id
			FROM s LEFT JOIN added ON added.subscription_id = s.id ORDER BY s.k`,
		endpoints: db.Rebind(`SELECT id, events, url, secret_sealed, previous_sealed, previous_expires_at, gated FROM webhook_subscriptions
			WHERE workspace_id = ? AND status = 'enabled' AND payload_version = ? ORDER BY id`),
		insert: db.Rebind(`INSERT INTO webhook_deliveries (` + deliveryColumns + `, lease_until, lease_token, trace_parent, gated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (subscription_id, event_id) DO NOTHING`),
		hints:        &endpointCounts{counts: map[string]int{}},
		singleWriter: db.Dialect == sqldb.SQLite,
	}
}

// endpointCounts remembers, per workspace and event type, how many endpoints the last
// fan-out found, so that the next one draws that many ids before its one statement. A
// wrong guess costs nothing but ids: too few, and the rest are inserted by a second
// statement; too many, and some ids go unused. Bounded: forgotten all at once when full.
type endpointCounts struct {
	mu     sync.Mutex
	counts map[string]int
}

const maxEndpointCounts = 10_000

func (c *endpointCounts) get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[key]
}

func (c *endpointCounts) set(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.counts) >= maxEndpointCounts {
		clear(c.counts)
	}
	c.counts[key] = n
}

// fanRow is an endpoint that wants the event, with the delivery the statement wrote for
// it ("" when it wrote none); I is the event's index in the batch.
type fanRow struct {
	I                 int        `db:"i"`
	ID                string     `db:"id"`
	Events            string     `db:"events"`
	URL               string     `db:"url"`
	SecretSealed      []byte     `db:"secret_sealed"`
	PreviousSealed    []byte     `db:"previous_sealed"`
	PreviousExpiresAt *time.Time `db:"previous_expires_at"`
	Gated             bool       `db:"gated"` // written unleased: the gated claim sends it
	K                 int        `db:"k"`
	DeliveryID        string     `db:"delivery_id"`
}

// FanOut writes the event's deliveries, one per enabled endpoint of the workspace that
// wants its type, leased under f.Token when set (docs/webhooks.md, "Fan-out"). On
// PostgreSQL it holds them until the transaction of ctx is about to commit, when the
// transaction defers writes (a subscriber's batch, WithinTx); else it writes at once.
func (r *Dispatch) FanOut(ctx context.Context, f webhooks.Fan, newID func() string, written func(context.Context, []webhooks.Lease)) error {
	if r.fan.singleWriter || f.Exclude != "" { // an operational event (rare) is not held: its statements exclude no endpoint
		return r.fanOutAtOnce(ctx, f, newID, written)
	}
	// The ids are drawn now, as many as the last fan-out of the type found endpoints.
	h := heldFan{f: f, trace: observe.TraceParent(ctx), ids: make([]string, r.fan.hints.get(hintKey(f))), newID: newID, written: written}
	for i := range h.ids {
		h.ids[i] = newID()
	}
	if r.fan.held.Add(ctx, h) {
		return nil
	}
	return r.writeHeld(ctx, []heldFan{h})
}

// writeHeld writes the deliveries of held events, fanOutBatch events per statement, and
// tells each event's written, in the order held.
func (r *Dispatch) writeHeld(ctx context.Context, held []heldFan) error {
	for start := 0; start < len(held); start += fanOutBatch {
		if err := r.writeBatch(ctx, held[start:min(start+fanOutBatch, len(held))]); err != nil {
			return err
		}
	}
	return nil
}

func (r *Dispatch) writeBatch(ctx context.Context, held []heldFan) error {
	n := len(held)
	idx, ws, eventIDs, types := make([]int32, n), make([]string, n), make([]string, n), make([]string, n)
	payloads, ats, tokens, untils := make([][]byte, n), make([]time.Time, n), make([]string, n), make([]time.Time, n)
	versions, traces := make([]int32, n), make([]string, n)
	var idEvent, idK []int32
	var ids []string
	for i, h := range held {
		idx[i], ws[i], eventIDs[i], types[i] = int32(i), h.f.WorkspaceID, h.f.EventID, h.f.EventType
		payloads[i], ats[i], tokens[i], untils[i], versions[i] = h.f.Payload, h.f.At, h.f.Token, h.f.Until, int32(payloadVersion(h.f))
		traces[i] = h.trace
		for k, id := range h.ids {
			idEvent, idK, ids = append(idEvent, int32(i)), append(idK, int32(k+1)), append(ids, id)
		}
	}
	// What every new delivery shares (NewDelivery's state but for its times, which are At).
	t := webhooks.NewDelivery("", &webhooks.Subscription{}, "", "", nil, time.Time{})
	var rows []fanRow
	var err error
	if n == 1 {
		// The ids as an array even when none were drawn: a nil slice would be NULL.
		f := held[0].f
		err = r.db.Write(ctx).SelectContext(ctx, &rows, r.fan.single, f.WorkspaceID, f.EventID, f.EventType, f.Payload, f.At,
			f.Token, leaseUntil(f), string(t.Status), t.Attempts, t.CycleAttempts, t.CycleFailedAt, t.LastAttemptAt,
			t.LastStatus, t.LastError, append([]string{}, held[0].ids...), payloadVersion(f), held[0].trace)
	} else {
		err = r.db.Write(ctx).SelectContext(ctx, &rows, r.fan.batch, idx, ws, eventIDs, types, payloads, ats, tokens, untils,
			string(t.Status), t.Attempts, t.CycleAttempts, t.CycleFailedAt, t.LastAttemptAt, t.LastStatus, t.LastError,
			idEvent, idK, ids, versions, traces)
	}
	if err != nil {
		return fmt.Errorf("fan out: %w", err)
	}
	leases := make([][]webhooks.Lease, n)
	found := make([]int, n)
	// An endpoint's secrets are opened once per batch, as a claim does, not once per event.
	endpoints := map[string]*webhooks.Subscription{}
	for _, row := range rows {
		h := held[row.I]
		found[row.I]++
		sub, ok := endpoints[row.ID]
		if !ok {
			sub = r.fanEndpoint(h.f.WorkspaceID, row)
			endpoints[row.ID] = sub
		}
		switch {
		case row.DeliveryID != "":
			d := webhooks.NewDelivery(row.DeliveryID, sub, h.f.EventID, h.f.EventType, h.f.Payload, h.f.At)
			leases[row.I] = append(leases[row.I], fanLease(d, sub, h.f, h.trace, row.Gated))
		case row.K > len(h.ids):
			// Beyond the ids drawn (the first event of a type since the start, or an endpoint
			// just added): a statement of its own. Within them, a conflict: a replay.
			l, added, err := r.addOne(ctx, h.f, h.trace, sub, h.newID(), row.Gated)
			if err != nil {
				return err
			}
			if added {
				leases[row.I] = append(leases[row.I], l)
			}
		}
	}
	for i, h := range held {
		r.fan.hints.set(hintKey(h.f), found[i])
		h.written(ctx, leases[i])
	}
	return nil
}

// fanOutAtOnce is SQLite's fan-out, and an operational event's on both: the endpoints,
// then a statement per delivery.
func (r *Dispatch) fanOutAtOnce(ctx context.Context, f webhooks.Fan, newID func() string, written func(context.Context, []webhooks.Lease)) error {
	var rows []fanRow
	if err := r.db.Read(ctx).SelectContext(ctx, &rows, r.fan.endpoints, f.WorkspaceID, payloadVersion(f)); err != nil {
		return fmt.Errorf("fan out: %w", err)
	}
	var leases []webhooks.Lease
	trace := observe.TraceParent(ctx)
	for _, row := range rows {
		if !containsField(row.Events, f.EventType) || row.ID == f.Exclude {
			continue
		}
		l, added, err := r.addOne(ctx, f, trace, r.fanEndpoint(f.WorkspaceID, row), newID(), row.Gated)
		if err != nil {
			return err
		}
		if added {
			leases = append(leases, l)
		}
	}
	written(ctx, leases)
	return nil
}

// addOne inserts the event's delivery for one endpoint unless it has one; trace is the
// traceparent its attempts continue.
func (r *Dispatch) addOne(ctx context.Context, f webhooks.Fan, trace string, sub *webhooks.Subscription, id string, gated bool) (webhooks.Lease, bool, error) {
	d := webhooks.NewDelivery(id, sub, f.EventID, f.EventType, f.Payload, f.At)
	l := fanLease(d, sub, f, trace, gated)
	var until *time.Time
	if l.Token != "" {
		until = &l.Until
	}
	added, err := r.db.Changes(ctx, "insert delivery", r.fan.insert, d.ID, d.WorkspaceID, d.SubscriptionID, d.EventID,
		d.EventType, d.Payload, string(d.Status), d.Attempts, d.CycleAttempts, d.CycleFailedAt, d.NextAttemptAt,
		d.LastAttemptAt, d.LastStatus, d.LastError, d.CreatedAt, d.UpdatedAt, until, l.Token, trace, gated)
	if err != nil {
		return webhooks.Lease{}, false, err
	}
	return l, added, nil
}

// fanLease is the lease of a delivery the fan-out wrote: none (an empty token) for a gated
// endpoint's, which waits for the gated claim (docs/webhook-receivers.md, "Rate limit, order,
// backlog"); trace is the traceparent its attempts continue.
func fanLease(d *webhooks.Delivery, sub *webhooks.Subscription, f webhooks.Fan, trace string, gated bool) webhooks.Lease {
	if gated {
		return webhooks.Lease{Delivery: d, Endpoint: sub, Trace: trace}
	}
	return webhooks.Lease{Delivery: d, Endpoint: sub, Token: f.Token, Until: f.Until, Trace: trace}
}

// fanEndpoint is what sending needs of an endpoint (as a claim returns it).
func (r *Dispatch) fanEndpoint(workspaceID string, row fanRow) *webhooks.Subscription {
	return r.endpoint(claimedRow{
		deliveryRow: deliveryRow{SubscriptionID: row.ID, WorkspaceID: workspaceID}, URL: row.URL,
		SecretSealed: row.SecretSealed, PreviousSealed: row.PreviousSealed, PreviousExpiresAt: row.PreviousExpiresAt,
	})
}

func leaseUntil(f webhooks.Fan) *time.Time {
	if f.Token == "" {
		return nil
	}
	return &f.Until
}

func hintKey(f webhooks.Fan) string {
	return f.WorkspaceID + " " + f.EventType + " " + strconv.Itoa(payloadVersion(f))
}

// payloadVersion is the version of f's bytes (0, a fan built without one, is v1).
func payloadVersion(f webhooks.Fan) int { return max(f.PayloadVersion, 1) }
