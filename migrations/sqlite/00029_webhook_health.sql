-- +goose Up
-- An endpoint's health without reading the attempt log: every recorded attempt adds to
-- the row of its endpoint, hour (UTC) and latency bucket (domain/webhooks/health.go), in
-- the write that logs it. The dashboard and the operator API read at most 7 × 24 rows a
-- bucket per endpoint on the primary key. Kept 30 days, as the log.
CREATE TABLE webhook_health_hourly (
    subscription_id  TEXT NOT NULL,
    hour             TIMESTAMP NOT NULL,
    bucket           INTEGER NOT NULL,
    workspace_id     TEXT NOT NULL,
    attempts         INTEGER NOT NULL,
    succeeded        INTEGER NOT NULL,
    last_error       TEXT NOT NULL,
    last_error_at    TIMESTAMP,
    PRIMARY KEY (subscription_id, hour, bucket)
);
CREATE INDEX webhook_health_hourly_by_hour ON webhook_health_hourly (hour);

-- A failing streak's "failing" event (webhook_endpoint.failing) is sent once: the row of
-- (endpoint, streak start) is written with the event, and a second one conflicts.
CREATE TABLE webhook_failing_alerts (
    subscription_id  TEXT NOT NULL,
    failing_since    TIMESTAMP NOT NULL,
    workspace_id     TEXT NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (subscription_id, failing_since)
);

-- +goose Down
DROP TABLE webhook_failing_alerts;
DROP TABLE webhook_health_hourly;
