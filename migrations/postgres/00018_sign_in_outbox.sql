-- +goose Up
-- A link is for signing in (a workspace the person joined) or for accepting an
-- invitation (the only way an invitation is accepted). Counted per address for the
-- mail ceiling and the daily invitation limit.
ALTER TABLE sign_in_links ADD COLUMN purpose TEXT NOT NULL DEFAULT 'sign_in' CHECK (purpose IN ('sign_in', 'invitation'));
CREATE INDEX sign_in_links_by_email ON sign_in_links (email, purpose, created_at);

-- The limits count per (address, client) and per client.
DROP INDEX sign_in_requests_by_email;
CREATE INDEX sign_in_requests_by_pair ON sign_in_requests (email, address, created_at);

-- The sign-in page's requests wait here for the mailer, known addresses and unknown
-- alike, so that the page's response time tells nothing.
CREATE TABLE sign_in_outbox (
    id           TEXT PRIMARY KEY,
    email        TEXT NOT NULL,
    address      TEXT NOT NULL,
    requested_at TIMESTAMPTZ NOT NULL,
    lease_until  TIMESTAMPTZ,
    done_at      TIMESTAMPTZ
);
CREATE INDEX sign_in_outbox_due ON sign_in_outbox (done_at, requested_at);

-- +goose Down
DROP TABLE sign_in_outbox;
DROP INDEX sign_in_requests_by_pair;
CREATE INDEX sign_in_requests_by_email ON sign_in_requests (email, created_at);
DROP INDEX sign_in_links_by_email;
ALTER TABLE sign_in_links DROP COLUMN purpose;
