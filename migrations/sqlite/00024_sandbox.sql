-- +goose Up
-- Every live workspace may have one paired sandbox: itself a workspace row, so its data,
-- subscriptions, delivery log, events, rate buckets and idempotency records are isolated
-- by the workspace_id every query already filters on. The sandbox's id is derived from
-- the live one (org_test_<live ulid>, domain/workspaces/sandbox.go), so creating it
-- lazily is idempotent; the unique index keeps the pairing one to one.
ALTER TABLE workspaces ADD COLUMN sandbox_of TEXT REFERENCES workspaces (id);
CREATE UNIQUE INDEX workspaces_sandbox_of ON workspaces (sandbox_of);

-- +goose Down
DROP INDEX workspaces_sandbox_of;
ALTER TABLE workspaces DROP COLUMN sandbox_of;
