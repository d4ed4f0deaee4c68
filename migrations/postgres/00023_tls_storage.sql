-- +goose Up
-- CREATORAPI_TLS=acme keeps certmagic's storage here (certificates, their keys, the ACME
-- account), so that every instance on one database serves one certificate; tls_locks holds
-- the issuance locks across instances (a row with an expiry its holder keeps pushing back).
CREATE TABLE tls_storage (
    key         TEXT PRIMARY KEY,
    value       BYTEA NOT NULL,
    modified_ms BIGINT NOT NULL
);
CREATE TABLE tls_locks (
    name       TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);

-- +goose Down
DROP TABLE tls_locks;
DROP TABLE tls_storage;
