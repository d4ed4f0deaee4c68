-- +goose Up
-- The analytics projection's freshness is kept per workspace: a workspace's events are
-- consumed in one partition, and partitions consumed at once by different instances must
-- not write one shared row (docs/events.md, "Partitions"). The old single row goes; each
-- workspace's row comes with its next event.
DELETE FROM analytics_progress;
ALTER TABLE analytics_progress RENAME COLUMN consumer TO workspace_id;

-- +goose Down
DELETE FROM analytics_progress;
ALTER TABLE analytics_progress RENAME COLUMN workspace_id TO consumer;
