-- +goose Up
-- A per-workspace counter bumped in the same transaction as any course change, so that
-- readers can cache catalogue pages and still see every committed change at once.
CREATE TABLE catalog_versions (
    workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id),
    version      BIGINT NOT NULL
);

-- +goose Down
DROP TABLE catalog_versions;
