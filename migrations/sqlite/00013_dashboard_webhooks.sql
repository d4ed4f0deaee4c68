-- +goose Up
-- The dashboard's delivery log filters an endpoint's deliveries by status or by event
-- type, newest first, keyset-paginated by (created_at, id): one index per filter keeps
-- every page an index range scan with 1,000,000 deliveries. Search by event id uses the
-- (subscription_id, event_id) unique index, by delivery id the primary key.
CREATE INDEX webhook_deliveries_log_status ON webhook_deliveries (workspace_id, subscription_id, status, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_log_type ON webhook_deliveries (workspace_id, subscription_id, event_type, created_at DESC, id DESC);

-- API requests per key per UTC day (the dashboard's overview): counted in memory and
-- added in batches, never a write per request.
CREATE TABLE api_key_requests_daily (
    workspace_id TEXT NOT NULL,
    key_id       TEXT NOT NULL,
    day          TEXT NOT NULL,
    requests     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, day, key_id)
);

-- +goose Down
DROP TABLE api_key_requests_daily;
DROP INDEX webhook_deliveries_log_type;
DROP INDEX webhook_deliveries_log_status;
