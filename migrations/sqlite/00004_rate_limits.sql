-- +goose Up
-- Rate-limit counters when CREATORAPI_RATE_LIMIT_STORE=database on SQLite (the default
-- there counts in memory): one row per subject (key:<id> or ip:<address>) holding its
-- minute and day windows. Window starts are unix seconds, compared for order only.
CREATE TABLE rate_limit_counters (
    subject      TEXT PRIMARY KEY,
    minute_start INTEGER NOT NULL,
    minute_count INTEGER NOT NULL,
    day_start    INTEGER NOT NULL,
    day_count    INTEGER NOT NULL
);

-- +goose Down
DROP TABLE rate_limit_counters;
