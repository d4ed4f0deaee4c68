-- +goose Up
-- Orders react to enrollment.revoked by stamping the entitlements that granted it.
CREATE INDEX order_entitlements_by_enrollment ON order_entitlements (workspace_id, enrollment_id);

-- +goose Down
DROP INDEX order_entitlements_by_enrollment;
