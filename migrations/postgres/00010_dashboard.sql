-- +goose Up
-- The dashboard. Keys keep the last four characters of their secret (its checksum part,
-- not secret material) so that a person can recognise a key; keys made before this
-- migration show none.
ALTER TABLE api_keys ADD COLUMN last_four TEXT NOT NULL DEFAULT '';

-- Members (module members): the people a workspace owner invited. The owner named by
-- workspaces.owner_email is always an owner and has no row here. joined_at is empty
-- while the invitation is pending (until their first sign-in).
CREATE TABLE workspace_members (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    email        TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'developer')),
    invited_by   TEXT NOT NULL,
    invited_at   TIMESTAMPTZ NOT NULL,
    joined_at    TIMESTAMPTZ,
    PRIMARY KEY (workspace_id, email)
);
CREATE INDEX workspace_members_by_email ON workspace_members (email);

-- One-time sign-in links: only a SHA-256 of the token is kept.
CREATE TABLE sign_in_links (
    token_hash   BYTEA PRIMARY KEY,
    email        TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    used_at      TIMESTAMPTZ
);
CREATE INDEX sign_in_links_by_expiry ON sign_in_links (expires_at);

-- Every request for a link (whether or not the address has an account), for the limits
-- per client address and per e-mail.
CREATE TABLE sign_in_requests (
    email      TEXT NOT NULL,
    address    TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sign_in_requests_by_email ON sign_in_requests (email, created_at);
CREATE INDEX sign_in_requests_by_address ON sign_in_requests (address, created_at);

-- Server-side sessions: the cookie carries a token, the table its SHA-256.
CREATE TABLE dashboard_sessions (
    token_hash   BYTEA PRIMARY KEY,
    email        TEXT NOT NULL,
    csrf_token   TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    last_seen_at TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    ended_at     TIMESTAMPTZ
);
CREATE INDEX dashboard_sessions_by_email ON dashboard_sessions (email);

-- Audit log (module audit): who changed keys, members, webhooks or sign-in state.
CREATE TABLE audit_log (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    actor        TEXT NOT NULL,
    address      TEXT NOT NULL,
    action       TEXT NOT NULL,
    target       TEXT NOT NULL,
    detail       TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX audit_log_page ON audit_log (workspace_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE audit_log;
DROP TABLE dashboard_sessions;
DROP TABLE sign_in_requests;
DROP TABLE sign_in_links;
DROP TABLE workspace_members;
ALTER TABLE api_keys DROP COLUMN last_four;
