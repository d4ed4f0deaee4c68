-- +goose Up
-- The delivery log's three indexes in ascending order (the pages read them backwards,
-- newest first, as fast). Descending, each new delivery's entry went to the left end of
-- its endpoint's range, where a full page splits in halves: the indexes stayed about half
-- full and every split wrote half a page of WAL. Ascending, the entry goes to the right end,
-- where PostgreSQL splits a run of increasing keys leaving the left page full. Measured:
-- the indexes 20-40 % smaller, about 350 WAL bytes less per delivered event
-- (docs/performance.md).
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
