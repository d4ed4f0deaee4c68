// Package webhooks is the webhooks module's persistence: it owns the webhook_subscriptions,
// webhook_deliveries, webhook_attempts and webhook_notices tables (docs/architecture.md,
// "Table ownership"). Subscriptions keep their signing secrets sealed (Sealer); Secrets
// publishes the sealed bytes to the platform's master-key rotation.
package webhooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Sealer seals signing secrets at rest, bound to their owner's id (secrets.Box).
type Sealer interface {
	Seal(owner string, plain []byte) ([]byte, error)
	Open(owner string, sealed []byte) ([]byte, error)
}

// sealing opens and seals an endpoint's secrets: the subscriptions and the claim
// (which reads the endpoint with its deliveries) share it.
type sealing struct{ box Sealer }

const webhookColumns = `id, workspace_id, url, events, status, disabled_reason, secret_sealed, previous_sealed,
	previous_expires_at, failing_since, created_at, updated_at, disabled_at, payload_version, receiver_sealed`

// Subscriptions stores webhook subscriptions with their secrets sealed.
type Subscriptions struct {
	sealing
	db                                       *sqldb.DB
	insert, get, getForUpdate, list, enabled string
	save, saveKeepingSecrets                 string
}

// NewSubscriptions prepares the statements for db's dialect.
func NewSubscriptions(db *sqldb.DB, box Sealer) *Subscriptions {
	sel := `SELECT ` + webhookColumns + pacingColumns + ` FROM webhook_subscriptions WHERE workspace_id = ? AND id = ?`
	return &Subscriptions{
		sealing: sealing{box}, db: db,
		insert:       db.Rebind(`INSERT INTO webhook_subscriptions (` + webhookColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		get:          db.Rebind(sel),
		getForUpdate: db.Rebind(sel + db.ForUpdate()),
		list:         db.Rebind(`SELECT ` + webhookColumns + pacingColumns + ` FROM webhook_subscriptions WHERE workspace_id = ? ORDER BY created_at DESC, id DESC`),
		// The event filter runs in Go: a workspace has few endpoints.
		enabled: db.Rebind(`SELECT ` + webhookColumns + pacingColumns + ` FROM webhook_subscriptions WHERE workspace_id = ? AND status = 'enabled'`),
		save: db.Rebind(`UPDATE webhook_subscriptions SET url = ?, events = ?, status = ?, disabled_reason = ?, secret_sealed = ?,
			previous_sealed = ?, previous_expires_at = ?, failing_since = ?, updated_at = ?, disabled_at = ?,
			receiver_sealed = CASE WHEN ? THEN receiver_sealed ELSE ? END
			WHERE workspace_id = ? AND id = ?`),
		// An endpoint whose secret cannot be opened keeps its sealed bytes: the right key
		// may come back, and nothing could re-seal them meanwhile.
		saveKeepingSecrets: db.Rebind(`UPDATE webhook_subscriptions SET url = ?, events = ?, status = ?, disabled_reason = ?,
			failing_since = ?, updated_at = ?, disabled_at = ?, receiver_sealed = CASE WHEN ? THEN receiver_sealed ELSE ? END
			WHERE workspace_id = ? AND id = ?`),
	}
}

type webhookRow struct {
	ID                string     `db:"id"`
	WorkspaceID       string     `db:"workspace_id"`
	URL               string     `db:"url"`
	Events            string     `db:"events"`
	Status            string     `db:"status"`
	DisabledReason    string     `db:"disabled_reason"`
	SecretSealed      []byte     `db:"secret_sealed"`
	PreviousSealed    []byte     `db:"previous_sealed"`
	PreviousExpiresAt *time.Time `db:"previous_expires_at"`
	FailingSince      *time.Time `db:"failing_since"`
	CreatedAt         time.Time  `db:"created_at"`
	UpdatedAt         time.Time  `db:"updated_at"`
	DisabledAt        *time.Time `db:"disabled_at"`
	PayloadVersion    int        `db:"payload_version"`
	pacingRow
	ReceiverSealed []byte `db:"receiver_sealed"`
}

func (r sealing) open(id string, sealed []byte) (webhooks.Secret, error) {
	plain, err := r.box.Open(id, sealed)
	if err != nil {
		return webhooks.Secret{}, err
	}
	return webhooks.ParseSecret(string(plain))
}

// subscription maps a row. A secret that cannot be opened does not fail the read: the
// endpoint is returned marked SecretUnreadable, so that one bad row never stops a list,
// a fan-out or an operator's disable (it fails its own deliveries instead).
func (r *Subscriptions) subscription(row webhookRow) *webhooks.Subscription {
	s := &webhooks.Subscription{
		ID: row.ID, WorkspaceID: row.WorkspaceID, URL: row.URL, Events: strings.Fields(row.Events),
		Status: webhooks.Status(row.Status), Reason: webhooks.DisabledReason(row.DisabledReason),
		PreviousExpiresAt: platform.UTCPtr(row.PreviousExpiresAt), FailingSince: platform.UTCPtr(row.FailingSince),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(), DisabledAt: platform.UTCPtr(row.DisabledAt),
		PayloadVersion: row.PayloadVersion,
	}
	row.pacingRow.fill(s)
	r.openSecrets(s, row.SecretSealed, row.PreviousSealed)
	r.openReceiver(s, row.ReceiverSealed)
	return s
}

// openSecrets fills s's secrets from their sealed bytes, or marks it SecretUnreadable.
func (r sealing) openSecrets(s *webhooks.Subscription, current, previous []byte) {
	secret, err := r.open(s.ID, current)
	if err != nil {
		s.SecretUnreadable = true
		return
	}
	s.Secret = secret
	if previous != nil {
		prev, err := r.open(s.ID, previous)
		if err != nil {
			s.Secret, s.SecretUnreadable = webhooks.Secret{}, true
			return
		}
		s.Previous = &prev
	}
}

// sealed returns the sealed current and previous secrets of s.
func (r sealing) sealed(s *webhooks.Subscription) (current, previous []byte, err error) {
	if current, err = r.box.Seal(s.ID, []byte(s.Secret.String())); err != nil {
		return nil, nil, err
	}
	if s.Previous != nil {
		if previous, err = r.box.Seal(s.ID, []byte(s.Previous.String())); err != nil {
			return nil, nil, err
		}
	}
	return current, previous, nil
}

// Add inserts s.
func (r *Subscriptions) Add(ctx context.Context, s *webhooks.Subscription) error {
	current, previous, err := r.sealed(s)
	if err != nil {
		return fmt.Errorf("insert webhook: %w", err)
	}
	receiver, err := r.sealedReceiver(s)
	if err != nil {
		return fmt.Errorf("insert webhook: %w", err)
	}
	_, err = r.db.Write(ctx).ExecContext(ctx, r.insert, s.ID, s.WorkspaceID, s.URL, strings.Join(s.Events, " "), string(s.Status),
		string(s.Reason), current, previous, s.PreviousExpiresAt, s.FailingSince, s.CreatedAt, s.UpdatedAt, s.DisabledAt,
		max(s.PayloadVersion, 1), receiver) // 0: a subscription built without one is v1's
	if err != nil {
		return fmt.Errorf("insert webhook: %w", err)
	}
	return nil
}

// Get returns the subscription of the workspace or NotFound.
func (r *Subscriptions) Get(ctx context.Context, workspaceID, id string) (*webhooks.Subscription, error) {
	return r.one(ctx, r.get, workspaceID, id)
}

// GetForUpdate is Get with the row locked (PostgreSQL; SQLite's writer is serialized).
func (r *Subscriptions) GetForUpdate(ctx context.Context, workspaceID, id string) (*webhooks.Subscription, error) {
	return r.one(ctx, r.getForUpdate, workspaceID, id)
}

func (r *Subscriptions) one(ctx context.Context, query, workspaceID, id string) (*webhooks.Subscription, error) {
	var row webhookRow
	err := r.db.Read(ctx).GetContext(ctx, &row, query, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("webhook %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get webhook: %w", err)
	}
	return r.subscription(row), nil
}

// List returns the workspace's subscriptions, newest first.
func (r *Subscriptions) List(ctx context.Context, workspaceID string) ([]*webhooks.Subscription, error) {
	return r.many(ctx, r.list, workspaceID, "")
}

// Enabled returns the workspace's enabled subscriptions that want eventType.
func (r *Subscriptions) Enabled(ctx context.Context, workspaceID, eventType string) ([]*webhooks.Subscription, error) {
	return r.many(ctx, r.enabled, workspaceID, eventType)
}

func (r *Subscriptions) many(ctx context.Context, query, workspaceID, eventType string) ([]*webhooks.Subscription, error) {
	var rows []webhookRow
	if err := r.db.Read(ctx).SelectContext(ctx, &rows, query, workspaceID); err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	out := make([]*webhooks.Subscription, 0, len(rows))
	for _, row := range rows {
		if eventType != "" && !containsField(row.Events, eventType) {
			continue
		}
		out = append(out, r.subscription(row))
	}
	return out, nil
}

func containsField(list, want string) bool {
	for _, f := range strings.Fields(list) {
		if f == want {
			return true
		}
	}
	return false
}

// Save writes the mutable state of s.
func (r *Subscriptions) Save(ctx context.Context, s *webhooks.Subscription) error {
	if s.SecretUnreadable {
		receiver, err := r.sealedReceiver(s)
		if err != nil {
			return fmt.Errorf("save webhook: %w", err)
		}
		_, err = r.db.Write(ctx).ExecContext(ctx, r.saveKeepingSecrets, s.URL, strings.Join(s.Events, " "), string(s.Status),
			string(s.Reason), s.FailingSince, s.UpdatedAt, s.DisabledAt, s.ReceiverUnreadable, receiver, s.WorkspaceID, s.ID)
		if err != nil {
			return fmt.Errorf("save webhook: %w", err)
		}
		return nil
	}
	current, previous, err := r.sealed(s)
	if err != nil {
		return fmt.Errorf("save webhook: %w", err)
	}
	receiver, err := r.sealedReceiver(s)
	if err != nil {
		return fmt.Errorf("save webhook: %w", err)
	}
	_, err = r.db.Write(ctx).ExecContext(ctx, r.save, s.URL, strings.Join(s.Events, " "), string(s.Status), string(s.Reason),
		current, previous, s.PreviousExpiresAt, s.FailingSince, s.UpdatedAt, s.DisabledAt, s.ReceiverUnreadable, receiver, s.WorkspaceID, s.ID)
	if err != nil {
		return fmt.Errorf("save webhook: %w", err)
	}
	return nil
}

// MarkHealthy ends failing streaks; a no-op (no row written) for healthy endpoints.
func (r *Subscriptions) MarkHealthy(ctx context.Context, workspaceID string, ids []string) error {
	return markHealthy(ctx, r.db, workspaceID, ids)
}

const healthy = `UPDATE webhook_subscriptions SET failing_since = NULL WHERE workspace_id = ? AND id IN (?) AND failing_since IS NOT NULL
	RETURNING id`

func markHealthy(ctx context.Context, db *sqldb.DB, workspaceID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	stmt, args, err := sqlx.In(healthy, workspaceID, ids)
	if err != nil {
		return fmt.Errorf("mark webhooks healthy: %w", err)
	}
	var ended []string
	if err := db.Write(ctx).SelectContext(ctx, &ended, db.Rebind(stmt), args...); err != nil {
		return fmt.Errorf("mark webhooks healthy: %w", err)
	}
	_, err = bringForward(ctx, db, workspaceID, ended, time.Time{}) // the receiver is back
	return err
}
