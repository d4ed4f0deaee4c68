-- +goose Up
-- The delivery log's three indexes in ascending order, as on PostgreSQL (see its 00032:
-- descending, each new entry went to the left end of its endpoint's range, where full pages
-- split in halves). SQLite reads them backwards, newest first, as it read them forwards.
DROP INDEX webhook_deliveries_page;
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (workspace_id, subscription_id, created_at, id);
DROP INDEX webhook_deliveries_log_status;
CREATE INDEX webhook_deliveries_log_status ON webhook_deliveries (workspace_id, subscription_id, status, created_at, id);
DROP INDEX webhook_deliveries_log_type;
CREATE INDEX webhook_deliveries_log_type ON webhook_deliveries (workspace_id, subscription_id, event_type, created_at, id);

-- +goose Down
DROP INDEX webhook_deliveries_page;
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (workspace_id, subscription_id, created_at DESC, id DESC);
DROP INDEX webhook_deliveries_log_status;
CREATE INDEX webhook_deliveries_log_status ON webhook_deliveries (workspace_id, subscription_id, status, created_at DESC, id DESC);
DROP INDEX webhook_deliveries_log_type;
CREATE INDEX webhook_deliveries_log_type ON webhook_deliveries (workspace_id, subscription_id, event_type, created_at DESC, id DESC);
