-- +goose Up
-- The indexes that only retention reads (rows older than a cutoff, once in a while) become
-- BRIN: each of these columns grows with the insert order, so a summary per 128 pages
-- finds the old rows, and a write no longer adds an entry to a b-tree. Every delivered
-- event wrote four such entries (its attempt, its ledger row, its outbox row, its
-- finished delivery); a BRIN summary changes only when a value falls outside its range.
-- SQLite keeps b-trees (it has no BRIN); the columns and predicates are the same.
DROP INDEX webhook_attempts_by_time;
CREATE INDEX webhook_attempts_by_time ON webhook_attempts USING brin (attempted_at);
DROP INDEX event_processed_at;
CREATE INDEX event_processed_at ON event_processed USING brin (processed_at);
DROP INDEX watermill_events_created_at;
CREATE INDEX watermill_events_created_at ON watermill_events USING brin (created_at);
DROP INDEX webhook_deliveries_finished;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries USING brin (updated_at) WHERE status <> 'pending';

-- +goose Down
DROP INDEX webhook_attempts_by_time;
CREATE INDEX webhook_attempts_by_time ON webhook_attempts (attempted_at);
DROP INDEX event_processed_at;
CREATE INDEX event_processed_at ON event_processed (processed_at);
DROP INDEX watermill_events_created_at;
CREATE INDEX watermill_events_created_at ON watermill_events (created_at);
DROP INDEX webhook_deliveries_finished;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status <> 'pending';
