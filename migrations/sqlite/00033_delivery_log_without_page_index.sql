-- +goose Up
-- As on PostgreSQL (see its 00033): the unfiltered delivery log is the merge of one range
-- of webhook_deliveries_log_status per status, so this index's entry, written at every
-- delivery's insert and again at its finish, goes.
DROP INDEX webhook_deliveries_page;

-- +goose Down
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (workspace_id, subscription_id, created_at, id);
