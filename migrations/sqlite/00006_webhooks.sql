-- +goose Up
-- Webhook endpoints. Signing secrets are sealed (AES-256-GCM, the subscription id as
-- associated data) by the application; the database never sees them in clear.
-- failing_since: first failed attempt after the last success (auto-disable, docs/webhooks.md).
CREATE TABLE webhook_subscriptions (
    id                   TEXT PRIMARY KEY,
    workspace_id         TEXT NOT NULL REFERENCES workspaces (id),
    url                  TEXT NOT NULL,
    events               TEXT NOT NULL, -- space-separated event types
    status               TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
    disabled_reason      TEXT NOT NULL DEFAULT '',
    secret_sealed        BLOB NOT NULL,
    previous_sealed      BLOB,
    previous_expires_at  TIMESTAMP,
    failing_since        TIMESTAMP,
    created_at           TIMESTAMP NOT NULL,
    updated_at           TIMESTAMP NOT NULL,
    disabled_at          TIMESTAMP
);
CREATE INDEX webhook_subscriptions_by_workspace ON webhook_subscriptions (workspace_id, created_at DESC, id DESC);

-- One delivery per (endpoint, event): the fan-out relies on this constraint to be idempotent.
-- payload holds the exact bytes signed and sent on every attempt.
-- lease_until/lease_token: a dispatcher instance owns the delivery until lease_until.
CREATE TABLE webhook_deliveries (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL,
    subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions (id),
    event_id         TEXT NOT NULL,
    event_type       TEXT NOT NULL,
    payload          BLOB NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    cycle_attempts   INTEGER NOT NULL DEFAULT 0,
    cycle_failed_at  TIMESTAMP,
    next_attempt_at  TIMESTAMP,
    lease_until      TIMESTAMP,
    lease_token      TEXT NOT NULL DEFAULT '',
    last_attempt_at  TIMESTAMP,
    last_status      INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL,
    UNIQUE (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (workspace_id, subscription_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status <> 'pending';

-- The attempt log, kept 30 days.
CREATE TABLE webhook_attempts (
    delivery_id      TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    number           INTEGER NOT NULL,
    workspace_id     TEXT NOT NULL,
    subscription_id  TEXT NOT NULL,
    attempted_at     TIMESTAMP NOT NULL,
    status_code      INTEGER NOT NULL,
    latency_ms       INTEGER NOT NULL,
    response         TEXT NOT NULL,
    error            TEXT NOT NULL,
    outcome          TEXT NOT NULL,
    PRIMARY KEY (delivery_id, number)
);
CREATE INDEX webhook_attempts_by_time ON webhook_attempts (attempted_at);

-- E-mail notices to workspace owners: written in the transaction that decided them,
-- sent at least once by the notifier (lease_until prevents two instances sending at once).
CREATE TABLE webhook_notices (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL,
    subscription_id  TEXT NOT NULL,
    recipient        TEXT NOT NULL,
    subject          TEXT NOT NULL,
    body             TEXT NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    next_attempt_at  TIMESTAMP NOT NULL,
    lease_until      TIMESTAMP,
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT NOT NULL DEFAULT '',
    sent_at          TIMESTAMP
);
CREATE INDEX webhook_notices_unsent ON webhook_notices (next_attempt_at) WHERE sent_at IS NULL;

-- +goose Down
DROP TABLE webhook_notices;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_subscriptions;
