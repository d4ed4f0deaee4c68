-- +goose Up
-- CREATORAPI_TLS=acme keeps certmagic's storage here (certificates, their keys, the ACME
-- account), so that every instance on one database serves one certificate; tls_locks holds
-- the issuance locks across instances (a row with an expiry its holder keeps pushing back).
CREATE TABLE tls_storage (
    key         TEXT PRIMARY KEY,
    value       BLOB NOT NULL,
    modified_ms INTEGER NOT NULL
);
CREATE TABLE tls_locks (
    name       TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_ms INTEGER NOT NULL
);

-- +goose Down
DROP TABLE tls_locks;
DROP TABLE tls_storage;
