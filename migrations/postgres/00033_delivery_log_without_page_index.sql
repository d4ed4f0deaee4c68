-- +goose Up
-- webhook_deliveries_page (workspace_id, subscription_id, created_at, id) goes: an
-- endpoint's deliveries in any status, newest first, are read as the merge of one range
-- of webhook_deliveries_log_status per status (three: the CHECK's values), each cut at the
-- page's length (adapters/sql/webhooks/log_any_status.go); the counts per status read the
-- same index. Every delivered event wrote this index's entry twice, at the fan-out's insert
-- and at the recording's update (never HOT: it changes status and next_attempt_at, both
-- indexed), of the eleven b-tree entries its delivery row cost. Measured in
-- docs/performance.md ("PostgreSQL's work per delivered event").
DROP INDEX webhook_deliveries_page;

-- +goose Down
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (workspace_id, subscription_id, created_at, id);
