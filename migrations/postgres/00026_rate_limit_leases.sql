-- +goose Up
-- Leasing (docs/rate-limits.md, "Blocks"): minute_count and day_count now hold what was
-- claimed, requests counted one by one plus blocks leased to instances; these columns hold
-- how much of that is blocks not yet settled by their instance, per window.
ALTER TABLE rate_limit_counters ADD COLUMN minute_leased INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rate_limit_counters ADD COLUMN day_leased INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE rate_limit_counters DROP COLUMN day_leased;
ALTER TABLE rate_limit_counters DROP COLUMN minute_leased;
