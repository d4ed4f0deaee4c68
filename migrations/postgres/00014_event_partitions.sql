-- +goose Up
-- Events are partitioned by workspace (docs/events.md, "Partitions"). The outbox keeps the
-- FNV-1a 32 hash of the event's workspace, so that any partition count applies to the
-- events already written (partition = partition_key % count); the index of the count in
-- use, on (partition_key % count, transaction_id, "offset"), is created by the service.
-- Events written before this migration carry 0 (partition 0 under every count).
ALTER TABLE watermill_events ADD COLUMN partition_key BIGINT NOT NULL DEFAULT 0;

-- The partition count the deployment runs (one row): instances follow it, and the one that
-- starts with another CREATORAPI_EVENTS_PARTITIONS changes it.
CREATE TABLE event_layout (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    parts      INTEGER NOT NULL CHECK (parts >= 1),
    changed_at TIMESTAMPTZ NOT NULL
);

-- Instances running consumers (names, comma-separated), and when each last said it was
-- alive (heartbeat). A consumer's pairs are shared among the live instances that run it.
CREATE TABLE event_instances (
    instance  TEXT PRIMARY KEY,
    consumers TEXT NOT NULL,
    seen_at   TIMESTAMPTZ NOT NULL
);

-- Who consumes each (consumer group, partition) pair of a layout: one instance at a time,
-- until expires_at unless it renews. owner '' is free.
CREATE TABLE event_leases (
    consumer   TEXT NOT NULL,
    parts      INTEGER NOT NULL,
    part       INTEGER NOT NULL,
    owner      TEXT NOT NULL DEFAULT '',
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (consumer, parts, part)
);
CREATE INDEX event_leases_owner ON event_leases (owner);

-- +goose Down
DROP TABLE event_leases;
DROP TABLE event_instances;
DROP TABLE event_layout;
ALTER TABLE watermill_events DROP COLUMN partition_key;
