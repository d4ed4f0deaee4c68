-- +goose Up
-- The events feed (GET /api/v1/events, docs/events.md "The events feed") reads one
-- workspace's events in stream order: one range of this index, partition_key being the
-- FNV-1a hash of the workspace (the workspace id in the metadata settles a collision).
CREATE INDEX watermill_events_feed ON watermill_events (partition_key, "offset");
-- GET /api/v1/events/{id}.
CREATE INDEX watermill_events_uuid ON watermill_events (uuid);

-- +goose Down
DROP INDEX watermill_events_uuid;
DROP INDEX watermill_events_feed;
