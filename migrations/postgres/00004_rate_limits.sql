-- +goose Up
-- Rate-limit counters of instances that share this database: one row per subject
-- (key:<id> or ip:<address>) holding its minute and day windows. Window starts are
-- unix seconds, compared for order only. UNLOGGED: a counter write costs no WAL
-- flush, and a crash merely forgets the current windows' counts.
CREATE UNLOGGED TABLE rate_limit_counters (
    subject      TEXT PRIMARY KEY,
    minute_start BIGINT NOT NULL,
    minute_count INTEGER NOT NULL,
    day_start    BIGINT NOT NULL,
    day_count    INTEGER NOT NULL
);

-- +goose Down
DROP TABLE rate_limit_counters;
