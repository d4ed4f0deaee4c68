-- +goose Up
-- The instances that keep API keys and catalogue versions in memory on PostgreSQL
-- (adapters/sqldb, caches_postgres.go). Unused on SQLite, where one process owns the file
-- and PRAGMA data_version tells it about every other writer's commits; created for
-- schema parity.
CREATE TABLE cache_instances (
    instance TEXT PRIMARY KEY,
    seen_at  TIMESTAMP NOT NULL
);

CREATE TABLE cache_acks (
    token    TEXT NOT NULL,
    instance TEXT NOT NULL,
    acked_at TIMESTAMP NOT NULL,
    PRIMARY KEY (token, instance)
);

-- +goose Down
DROP TABLE cache_acks;
DROP TABLE cache_instances;
