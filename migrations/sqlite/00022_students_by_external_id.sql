-- +goose Up
-- GET /api/v1/students?externalId= and the batch upsert find a CRM's contact by its own
-- id: one index serves the filter and the list's order (newest first).
CREATE INDEX students_by_external_id ON students (workspace_id, external_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- +goose Down
DROP INDEX students_by_external_id;
