-- +goose Up
-- What an endpoint's receiver asks for beyond the signature (static headers, OAuth2 client
-- credentials): JSON sealed like the signing secret, bound to the endpoint id
-- (adapters/sql/webhooks/receiver.go). NULL: nothing beyond the signature.
ALTER TABLE webhook_subscriptions ADD COLUMN receiver_sealed BYTEA;

-- A backfill: the endpoint's events since `since`, read from the outbox in stream order
-- after (after_tx, after_offset) and written as ordinary deliveries, until the read has
-- passed (stop_tx, stop_offset), the stream's tail once the backfill first ran (so every
-- event whose fan-out could not see the endpoint is covered). Leased by one worker at a time.
CREATE TABLE webhook_backfills (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL,
    subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions (id),
    since            TIMESTAMPTZ NOT NULL,
    after_tx         BIGINT NOT NULL DEFAULT 0,
    after_offset     BIGINT NOT NULL DEFAULT 0,
    stop_tx          BIGINT,
    stop_offset      BIGINT,
    status           TEXT NOT NULL CHECK (status IN ('running', 'done')),
    enqueued         INTEGER NOT NULL DEFAULT 0,
    lease_until      TIMESTAMPTZ,
    lease_token      TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    finished_at      TIMESTAMPTZ
);
CREATE INDEX webhook_backfills_running ON webhook_backfills (created_at, id) WHERE status = 'running';
CREATE INDEX webhook_backfills_by_endpoint ON webhook_backfills (workspace_id, subscription_id, created_at DESC);

-- +goose Down
DROP TABLE webhook_backfills;
ALTER TABLE webhook_subscriptions DROP COLUMN receiver_sealed;
