-- +goose Up
-- The dispatcher's claim seeks on this index: ORDER BY next_attempt_at, id LIMIT n over
-- next_attempt_at <= now. Its predicate is implied by that range alone (a delivery has a
-- next attempt exactly while it is pending), so the claim need not say status = 'pending':
-- without statistics that equality is guessed at 0.5 % of the table, the planner then
-- expects a handful of due rows and sorts every due row instead of reading the first n
-- (docs/webhooks.md, "Plans that do not depend on statistics").
CREATE INDEX webhook_deliveries_claimable ON webhook_deliveries (next_attempt_at, id) WHERE next_attempt_at IS NOT NULL;
DROP INDEX webhook_deliveries_due;

-- +goose Down
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
DROP INDEX webhook_deliveries_claimable;
