-- +goose Up
-- PostgreSQL's 00012 gives queue-like tables their own autovacuum settings. SQLite has no
-- autovacuum thresholds or planner statistics of that kind to tune: nothing to do, kept so
-- both dialects share one version sequence.
SELECT 1;

-- +goose Down
SELECT 1;
