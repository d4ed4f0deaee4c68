-- +goose Up
-- Calls of deprecated routes, one row per API key and route (docs/contract.md,
-- Versioning): summed in memory and added here at each flush, never a write per request.
-- sunset is the route's sunset when last called; the notices read the rows by it.
CREATE TABLE deprecated_calls (
    workspace_id TEXT NOT NULL,
    key_id       TEXT NOT NULL,
    route        TEXT NOT NULL,
    calls        BIGINT NOT NULL,
    first_seen   TIMESTAMPTZ NOT NULL,
    last_seen    TIMESTAMPTZ NOT NULL,
    sunset       TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (workspace_id, key_id, route)
);
CREATE INDEX deprecated_calls_by_sunset ON deprecated_calls (sunset, last_seen);

-- The owners' e-mails before a sunset: one per key, sunset and threshold (90, 30, 7
-- days), stored when decided, leased while sent, marked sent after.
CREATE TABLE deprecation_notices (
    workspace_id   TEXT NOT NULL,
    key_id         TEXT NOT NULL,
    sunset         TIMESTAMPTZ NOT NULL,
    threshold_days INTEGER NOT NULL,
    recipient      TEXT NOT NULL,
    subject        TEXT NOT NULL,
    body           TEXT NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    lease_until    TIMESTAMPTZ,
    sent_at        TIMESTAMPTZ,
    PRIMARY KEY (workspace_id, key_id, sunset, threshold_days)
);
CREATE INDEX deprecation_notices_unsent ON deprecation_notices (sent_at, created_at);

-- The payload version (the API major) a webhook endpoint was created under: its
-- deliveries are rendered at that version. Every existing endpoint is v1's.
ALTER TABLE webhook_subscriptions ADD COLUMN payload_version INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE webhook_subscriptions DROP COLUMN payload_version;
DROP TABLE deprecation_notices;
DROP TABLE deprecated_calls;
