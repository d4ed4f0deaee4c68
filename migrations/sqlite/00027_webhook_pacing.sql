-- +goose Up
-- Per-endpoint pacing (docs/webhooks.md, "Rate limit, order, backlog"): rate_limit
-- (deliveries per second, NULL = none) and ordered are the endpoint's settings;
-- paused_until is a receiver's 429 Retry-After; rate_next_at is the endpoint's next free
-- send slot, shared by every instance (the claim locks the endpoint row to take slots).
-- gated is true while any of them applies; it is copied onto the endpoint's pending
-- deliveries, which then leave the open claim's index for the gated claim's.
ALTER TABLE webhook_subscriptions ADD COLUMN rate_limit INTEGER;
ALTER TABLE webhook_subscriptions ADD COLUMN ordered BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE webhook_subscriptions ADD COLUMN paused_until TIMESTAMP;
ALTER TABLE webhook_subscriptions ADD COLUMN rate_next_at TIMESTAMP;
ALTER TABLE webhook_subscriptions ADD COLUMN gated BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX webhook_subscriptions_gated ON webhook_subscriptions (id) WHERE gated = TRUE;
ALTER TABLE webhook_deliveries ADD COLUMN gated BOOLEAN NOT NULL DEFAULT FALSE;
-- The open claim seeks here (gated deliveries are not walked past); the gated claim reads
-- an endpoint's pending deliveries in event order; retrying serves "bring the waiting
-- retries forward" (a pending delivery is due later than now only after a failure).
CREATE INDEX webhook_deliveries_open ON webhook_deliveries (next_attempt_at, id) WHERE next_attempt_at IS NOT NULL AND gated = FALSE;
CREATE INDEX webhook_deliveries_gated ON webhook_deliveries (subscription_id, created_at, id) WHERE next_attempt_at IS NOT NULL AND gated = TRUE;
CREATE INDEX webhook_deliveries_retrying ON webhook_deliveries (subscription_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL AND cycle_attempts > 0;
DROP INDEX webhook_deliveries_claimable;

-- +goose Down
CREATE INDEX webhook_deliveries_claimable ON webhook_deliveries (next_attempt_at, id) WHERE next_attempt_at IS NOT NULL;
DROP INDEX webhook_deliveries_retrying;
DROP INDEX webhook_deliveries_gated;
DROP INDEX webhook_deliveries_open;
ALTER TABLE webhook_deliveries DROP COLUMN gated;
DROP INDEX webhook_subscriptions_gated;
ALTER TABLE webhook_subscriptions DROP COLUMN gated;
ALTER TABLE webhook_subscriptions DROP COLUMN rate_next_at;
ALTER TABLE webhook_subscriptions DROP COLUMN paused_until;
ALTER TABLE webhook_subscriptions DROP COLUMN ordered;
ALTER TABLE webhook_subscriptions DROP COLUMN rate_limit;
