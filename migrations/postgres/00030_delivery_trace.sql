-- +goose Up
-- The W3C traceparent of the request whose event caused the delivery ('' when none): each
-- attempt, claimed by any instance, continues that trace and sends it to the receiver.
ALTER TABLE webhook_deliveries ADD COLUMN trace_parent TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE webhook_deliveries DROP COLUMN trace_parent;
