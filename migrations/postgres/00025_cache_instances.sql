-- +goose Up
-- The instances that keep API keys and catalogue versions in memory (adapters/sqldb,
-- caches_postgres.go): each one's heartbeat, and its acknowledgements of invalidations.
-- A change that invalidates waits, after its commit, until every instance seen in the
-- last seconds has acknowledged its token (docs/rate-limits.md). UNLOGGED: a crash only
-- forgets who was alive, and the instances write their rows again within a second.
CREATE UNLOGGED TABLE cache_instances (
    instance TEXT PRIMARY KEY,
    seen_at  TIMESTAMPTZ NOT NULL
);

CREATE UNLOGGED TABLE cache_acks (
    token    TEXT NOT NULL,
    instance TEXT NOT NULL,
    acked_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (token, instance)
);

-- +goose Down
DROP TABLE cache_acks;
DROP TABLE cache_instances;
