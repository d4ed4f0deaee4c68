package webhooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

const deliveryColumns = `id, workspace_id, subscription_id, event_id, event_type, payload, status, attempts, cycle_attempts,
	cycle_failed_at, next_attempt_at, last_attempt_at, last_status, last_error, created_at, updated_at`

// Deliveries stores deliveries and their attempt log.
type Deliveries struct {
	db                   *sqldb.DB
	insert, insertLeased string
	get, save, resend    string
	attemptsOf           string // expanded by sqlx.In per call
	page, pageAfter      string
}

// NewDeliveries prepares the statements for db's dialect.
func NewDeliveries(db *sqldb.DB) *Deliveries {
	pageSel := `SELECT ` + deliveryColumns + ` FROM webhook_deliveries
		WHERE workspace_id = ? AND subscription_id = ? AND status = ?`
	return &Deliveries{
		db: db,
		insert: db.Rebind(`INSERT INTO webhook_deliveries (` + deliveryColumns + `, gated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
			` + endpointGated + `) ON CONFLICT (subscription_id, event_id) DO NOTHING`),
		insertLeased: db.Rebind(`INSERT INTO webhook_deliveries (` + deliveryColumns + `, lease_until, lease_token)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (subscription_id, event_id) DO NOTHING`),
		get: db.Rebind(`SELECT ` + deliveryColumns + ` FROM webhook_deliveries WHERE workspace_id = ? AND id = ?`),
		// A delivery saved or resent takes its endpoint's gate (its pacing may have changed
		// since it last was pending).
		save: db.Rebind(`UPDATE webhook_deliveries SET status = ?, attempts = ?, cycle_attempts = ?, cycle_failed_at = ?,
			next_attempt_at = ?, last_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ?, gated = ` + currentGate + `
			WHERE workspace_id = ? AND id = ?`),
		resend: db.Rebind(`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, cycle_attempts = 0,
			cycle_failed_at = NULL, updated_at = ?, gated = ` + currentGate + `
			WHERE workspace_id = ? AND subscription_id = ? AND status = 'failed' AND created_at >= ? AND created_at < ?`),
		attemptsOf: `SELECT delivery_id, number, workspace_id, subscription_id, attempted_at, status_code, latency_ms, response, error, outcome
			FROM webhook_attempts WHERE workspace_id = ? AND delivery_id IN (?) ORDER BY delivery_id, number`,
		page:      db.Rebind(pageSel + ` ORDER BY created_at DESC, id DESC LIMIT ?`),
		pageAfter: db.Rebind(pageSel + ` AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`), // a row value keeps the seek on the index
	}
}

type deliveryRow struct {
	ID             string     `db:"id"`
	WorkspaceID    string     `db:"workspace_id"`
	SubscriptionID string     `db:"subscription_id"`
	EventID        string     `db:"event_id"`
	EventType      string     `db:"event_type"`
	Payload        []byte     `db:"payload"`
	Status         string     `db:"status"`
	Attempts       int        `db:"attempts"`
	CycleAttempts  int        `db:"cycle_attempts"`
	CycleFailedAt  *time.Time `db:"cycle_failed_at"`
	NextAttemptAt  *time.Time `db:"next_attempt_at"`
	LastAttemptAt  *time.Time `db:"last_attempt_at"`
	LastStatus     int        `db:"last_status"`
	LastError      string     `db:"last_error"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      time.Time  `db:"updated_at"`
}

func (row deliveryRow) delivery() *webhooks.Delivery {
	return &webhooks.Delivery{
		ID: row.ID, WorkspaceID: row.WorkspaceID, SubscriptionID: row.SubscriptionID, EventID: row.EventID,
		EventType: row.EventType, Payload: row.Payload, Status: webhooks.DeliveryStatus(row.Status),
		Attempts: row.Attempts, CycleAttempts: row.CycleAttempts, CycleFailedAt: platform.UTCPtr(row.CycleFailedAt),
		NextAttemptAt: platform.UTCPtr(row.NextAttemptAt), LastAttemptAt: platform.UTCPtr(row.LastAttemptAt),
		LastStatus: row.LastStatus, LastError: row.LastError, CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
}

// AddIfAbsent inserts d unless its endpoint already has a delivery of the event.
func (r *Deliveries) AddIfAbsent(ctx context.Context, d *webhooks.Delivery) (bool, error) {
	return r.add(ctx, r.insert, d)
}

// AddLeased inserts d leased under token until until, unless its endpoint already has a
// delivery of the event.
func (r *Deliveries) AddLeased(ctx context.Context, d *webhooks.Delivery, token string, until time.Time) (bool, error) {
	return r.add(ctx, r.insertLeased, d, until, token)
}

func (r *Deliveries) add(ctx context.Context, stmt string, d *webhooks.Delivery, lease ...any) (bool, error) {
	args := append([]any{d.ID, d.WorkspaceID, d.SubscriptionID, d.EventID, d.EventType,
		d.Payload, string(d.Status), d.Attempts, d.CycleAttempts, d.CycleFailedAt, d.NextAttemptAt, d.LastAttemptAt,
		d.LastStatus, d.LastError, d.CreatedAt, d.UpdatedAt}, lease...)
	if stmt == r.insert {
		args = append(args, d.SubscriptionID)
	}
	res, err := r.db.Write(ctx).ExecContext(ctx, stmt, args...)
	if err != nil {
		return false, fmt.Errorf("insert delivery: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("insert delivery: %w", err)
	}
	return n == 1, nil
}

// Get returns the delivery of the workspace or NotFound.
func (r *Deliveries) Get(ctx context.Context, workspaceID, id string) (*webhooks.Delivery, error) {
	var row deliveryRow
	err := r.db.Read(ctx).GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("delivery %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get delivery: %w", err)
	}
	return row.delivery(), nil
}

// Save writes the delivery's state; a lease held on it stays.
func (r *Deliveries) Save(ctx context.Context, d *webhooks.Delivery) error {
	_, err := r.db.Write(ctx).ExecContext(ctx, r.save, string(d.Status), d.Attempts, d.CycleAttempts, d.CycleFailedAt,
		d.NextAttemptAt, d.LastAttemptAt, d.LastStatus, d.LastError, d.UpdatedAt, d.WorkspaceID, d.ID)
	if err != nil {
		return fmt.Errorf("save delivery: %w", err)
	}
	return nil
}

// AddAttempts appends lines to the attempt log with one statement (a round trip per
// line bounded the dispatcher's throughput on PostgreSQL), and counts them in their
// endpoints' health with a second.
func (r *Deliveries) AddAttempts(ctx context.Context, as []webhooks.Attempt) error {
	return insertAttempts(ctx, r.db, as)
}

// attemptTypes are an attempt row's column types, for VALUES.
var attemptTypes = []string{"TEXT", "INTEGER", "TEXT", "TEXT", "TIMESTAMPTZ", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT"}

func insertAttempts(ctx context.Context, db *sqldb.DB, as []webhooks.Attempt) error {
	if len(as) == 0 {
		return nil
	}
	stmt := db.Rebind(`INSERT INTO webhook_attempts (delivery_id, number, workspace_id, subscription_id, attempted_at,
		status_code, latency_ms, response, error, outcome) ` + db.Values(len(as), attemptTypes...))
	args := make([]any, 0, len(as)*len(attemptTypes))
	for _, a := range as {
		args = append(args, a.DeliveryID, a.Number, a.WorkspaceID, a.SubscriptionID, a.At,
			a.StatusCode, a.Latency.Milliseconds(), a.Response, a.Error, string(a.Outcome))
	}
	if _, err := db.Write(ctx).ExecContext(ctx, stmt, args...); err != nil {
		return fmt.Errorf("insert attempts: %w", err)
	}
	return addHealth(ctx, db, as)
}

type attemptRow struct {
	DeliveryID     string    `db:"delivery_id"`
	Number         int       `db:"number"`
	WorkspaceID    string    `db:"workspace_id"`
	SubscriptionID string    `db:"subscription_id"`
	AttemptedAt    time.Time `db:"attempted_at"`
	StatusCode     int       `db:"status_code"`
	LatencyMs      int64     `db:"latency_ms"`
	Response       string    `db:"response"`
	Error          string    `db:"error"`
	Outcome        string    `db:"outcome"`
}

// Attempts returns the attempt logs of the deliveries, oldest first.
func (r *Deliveries) Attempts(ctx context.Context, workspaceID string, deliveryIDs []string) (map[string][]webhooks.Attempt, error) {
	out := map[string][]webhooks.Attempt{}
	if len(deliveryIDs) == 0 {
		return out, nil
	}
	stmt, args, err := sqlx.In(r.attemptsOf, workspaceID, deliveryIDs)
	if err != nil {
		return nil, fmt.Errorf("list attempts: %w", err)
	}
	var rows []attemptRow
	if err := r.db.Read(ctx).SelectContext(ctx, &rows, r.db.Rebind(stmt), args...); err != nil {
		return nil, fmt.Errorf("list attempts: %w", err)
	}
	for _, a := range rows {
		out[a.DeliveryID] = append(out[a.DeliveryID], webhooks.Attempt{
			DeliveryID: a.DeliveryID, WorkspaceID: a.WorkspaceID, SubscriptionID: a.SubscriptionID, Number: a.Number,
			At: a.AttemptedAt.UTC(), StatusCode: a.StatusCode, Latency: time.Duration(a.LatencyMs) * time.Millisecond,
			Response: a.Response, Error: a.Error, Outcome: webhooks.Outcome(a.Outcome),
		})
	}
	return out, nil
}

// ResendFailed starts a new cycle for the endpoint's failed deliveries created in [since, until).
func (r *Deliveries) ResendFailed(ctx context.Context, workspaceID, subscriptionID string, since, until, now time.Time) (int, error) {
	res, err := r.db.Write(ctx).ExecContext(ctx, r.resend, now, now, workspaceID, subscriptionID, since, until)
	if err != nil {
		return 0, fmt.Errorf("recover deliveries: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("recover deliveries: %w", err)
	}
	return int(n), nil
}

// Page lists the endpoint's deliveries newest first; status "" means any (one range of
// the status index per status, merged: anyStatusPage).
func (r *Deliveries) Page(ctx context.Context, workspaceID, subscriptionID, status string, req platform.PageRequest) (platform.Page[*webhooks.Delivery], error) {
	var rows []deliveryRow
	var err error
	switch {
	case status == "" && req.After == nil:
		stmt, args := anyStatusPage("", workspaceID, subscriptionID, nil, req.Limit+1)
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.db.Rebind(stmt), args...)
	case status == "":
		stmt, args := anyStatusPage(` AND (created_at, id) < (?, ?)`, workspaceID, subscriptionID,
			[]any{req.After.CreatedAt, req.After.ID}, req.Limit+1)
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.db.Rebind(stmt), args...)
	case req.After == nil:
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.page, workspaceID, subscriptionID, status, req.Limit+1)
	default:
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.pageAfter, workspaceID, subscriptionID, status,
			req.After.CreatedAt, req.After.ID, req.Limit+1)
	}
	if err != nil {
		return platform.Page[*webhooks.Delivery]{}, fmt.Errorf("list deliveries: %w", err)
	}
	return deliveryPage(rows, req.Limit), nil
}

// deliveryPage turns up to limit+1 rows (newest first) into a page: the extra row only
// says that more follow; the last shown row is the next page's position.
func deliveryPage(rows []deliveryRow, limit int) platform.Page[*webhooks.Delivery] {
	var page platform.Page[*webhooks.Delivery]
	if len(rows) > limit {
		rows, page.HasMore = rows[:limit], true
	}
	for _, row := range rows {
		page.Items = append(page.Items, row.delivery())
	}
	if page.HasMore {
		last := rows[len(rows)-1]
		page.Next = &platform.Position{CreatedAt: last.CreatedAt.UTC(), ID: last.ID}
	}
	return page
}
