-- +goose Up
-- Idempotency-Key records of the public API (application/idempotency): one per
-- (API key, client key), written in the transaction of the change it answered, so that
-- the answer, the change and its event commit together. A row whose status is NULL is
-- the placeholder of a request still running: no other transaction ever sees one (a
-- concurrent insert of the same key waits for its transaction to end). Kept 24 hours;
-- the purge finds old rows by created_at.
CREATE TABLE idempotency_keys (
    workspace_id    TEXT NOT NULL,
    key_id          TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint     BLOB NOT NULL,
    status          INTEGER,
    content_type    TEXT NOT NULL DEFAULT '',
    body            BLOB,
    created_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, key_id, idempotency_key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

-- +goose Down
DROP TABLE idempotency_keys;
