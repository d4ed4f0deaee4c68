-- +goose Up
-- The indexes that only retention reads (rows older than a cutoff, once in a while) become
-- BRIN: each of these columns grows with the insert order, so a summary per 128 pages
-- finds the old rows, and a write no longer adds an entry to a b-tree. Every delivered
-- event wrote four such entries (its attempt, its ledger row, its outbox row, its
-- finished delivery); a BRIN summary changes only when a value falls outside its range.
-- autosummarize: a range is summarized soon after it fills (autovacuum's work item), so a
-- retention pass with nothing to delete reads two index pages, not the unsummarized tail.
-- SQLite keeps b-trees (it has no BRIN); the columns and predicates are the same.
--
-- Two foreign keys go, on PostgreSQL only: each ran a trigger per inserted row that read
-- and share-locked the parent row. Every delivery written locked its endpoint's row, the
-- one row all of an endpoint's concurrent publishing transactions touch (a MultiXact as
-- soon as two overlap); every attempt logged locked its delivery's row again. What they
-- guarded holds by construction: the fan-out inserts deliveries for the endpoints its own
-- statement reads, a delivery added alone takes its gate from its endpoint's row (NULL, which
-- the NOT NULL column refuses, when there is none), and no endpoint is ever deleted
-- (disabled, never removed); an attempt
-- is inserted from the delivery row its statement (or transaction) just updated, and
-- retention deletes a delivery's attempts with it (adapters/sql/webhooks/prune.go, what
-- ON DELETE CASCADE did). SQLite's checks are calls in the process: they stay.
DROP INDEX webhook_attempts_by_time;
CREATE INDEX webhook_attempts_by_time ON webhook_attempts USING brin (attempted_at) WITH (autosummarize = on);
DROP INDEX event_processed_at;
CREATE INDEX event_processed_at ON event_processed USING brin (processed_at) WITH (autosummarize = on);
DROP INDEX watermill_events_created_at;
CREATE INDEX watermill_events_created_at ON watermill_events USING brin (created_at) WITH (autosummarize = on);
DROP INDEX webhook_deliveries_finished;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries USING brin (updated_at) WITH (autosummarize = on) WHERE status <> 'pending';
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subscription_id_fkey;
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_delivery_id_fkey;

-- +goose Down
ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_delivery_id_fkey
    FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subscription_id_fkey
    FOREIGN KEY (subscription_id) REFERENCES webhook_subscriptions (id);
DROP INDEX webhook_attempts_by_time;
CREATE INDEX webhook_attempts_by_time ON webhook_attempts (attempted_at);
DROP INDEX event_processed_at;
CREATE INDEX event_processed_at ON event_processed (processed_at);
DROP INDEX watermill_events_created_at;
CREATE INDEX watermill_events_created_at ON watermill_events (created_at);
DROP INDEX webhook_deliveries_finished;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status <> 'pending';
