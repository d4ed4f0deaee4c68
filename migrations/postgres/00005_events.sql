-- +goose Up
-- Events a consumer failed on after its retries: parked here so the stream goes on,
-- until an operator replays them (creatorapi events replay).
CREATE TABLE event_failures (
    consumer        TEXT NOT NULL,
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    payload         TEXT NOT NULL,
    error           TEXT NOT NULL,
    attempts        INTEGER NOT NULL,
    first_failed_at TIMESTAMPTZ NOT NULL,
    last_failed_at  TIMESTAMPTZ NOT NULL,
    replayed_at     TIMESTAMPTZ,
    PRIMARY KEY (consumer, event_id)
);

-- One row per event a consumer has applied, written in the same transaction as its
-- effect: a redelivered or replayed event finds its row and changes nothing.
CREATE TABLE event_processed (
    consumer     TEXT NOT NULL,
    event_id     TEXT NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (consumer, event_id)
);
CREATE INDEX event_processed_at ON event_processed (processed_at);

-- Retention scans the oldest outbox rows.
CREATE INDEX watermill_events_created_at ON watermill_events (created_at);

-- +goose Down
DROP INDEX watermill_events_created_at;
DROP TABLE event_processed;
DROP TABLE event_failures;
