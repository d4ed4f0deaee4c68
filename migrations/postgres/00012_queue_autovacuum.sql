-- +goose Up
-- Queue-like tables take inserts and updates at the event rate and lose rows to retention.
-- The default thresholds (20 % of a table changed) leave a large table unvacuumed and
-- unanalysed for hours, and the claim and poll plans drift; these tables are vacuumed and
-- analysed after about 1-2 % of their rows change. Effective only with autovacuum on: the
-- service warns at start when it is off (docs/operations.md says what to run instead).
ALTER TABLE watermill_events SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
ALTER TABLE watermill_offsets_events SET (autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 1000);
ALTER TABLE event_processed SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
ALTER TABLE webhook_deliveries SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.02);
ALTER TABLE webhook_attempts SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
ALTER TABLE webhook_notices SET (autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 1000);
ALTER TABLE rate_limit_counters SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);

-- +goose Down
ALTER TABLE watermill_events RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor, autovacuum_vacuum_insert_scale_factor);
ALTER TABLE watermill_offsets_events RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold);
ALTER TABLE event_processed RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor, autovacuum_vacuum_insert_scale_factor);
ALTER TABLE webhook_deliveries RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor, autovacuum_vacuum_insert_scale_factor);
ALTER TABLE webhook_attempts RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor, autovacuum_vacuum_insert_scale_factor);
ALTER TABLE webhook_notices RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold);
ALTER TABLE rate_limit_counters RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor);
