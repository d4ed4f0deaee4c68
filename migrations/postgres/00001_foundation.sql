-- +goose Up
CREATE TABLE workspaces (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    owner_email TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    name         TEXT NOT NULL,
    lookup       TEXT NOT NULL UNIQUE,
    secret_hash  BYTEA NOT NULL,
    scopes       TEXT NOT NULL,
    per_minute   INTEGER NOT NULL,
    per_day      INTEGER NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    revoked_at   TIMESTAMPTZ,
    last_used_at TIMESTAMPTZ
);
CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at DESC, id DESC);

CREATE TABLE courses (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    slug         TEXT NOT NULL,
    title        TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
    module_count INTEGER NOT NULL DEFAULT 0,
    lesson_count INTEGER NOT NULL DEFAULT 0,
    published_at TIMESTAMPTZ,
    archived_at  TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    UNIQUE (workspace_id, slug)
);
CREATE INDEX courses_published_page ON courses (workspace_id, created_at DESC, id DESC) WHERE status = 'published';

CREATE TABLE course_modules (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    course_id    TEXT NOT NULL REFERENCES courses (id),
    title        TEXT NOT NULL,
    position     INTEGER NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    UNIQUE (course_id, position)
);

CREATE TABLE lessons (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL,
    course_id        TEXT NOT NULL REFERENCES courses (id),
    module_id        TEXT NOT NULL REFERENCES course_modules (id),
    title            TEXT NOT NULL,
    type             TEXT NOT NULL CHECK (type IN ('video', 'text', 'quiz', 'live', 'download')),
    duration_seconds INTEGER NOT NULL,
    position         INTEGER NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    UNIQUE (module_id, position)
);
CREATE INDEX lessons_by_course ON lessons (course_id);

-- Service-wide facts, such as which workspace the demo seeded.
CREATE TABLE settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- The outbox: watermill-sql's default PostgreSQL schema for the topic "events",
-- created here because topic tables cannot be created inside a transaction.
CREATE TABLE watermill_events (
    "offset"       BIGSERIAL,
    "uuid"         VARCHAR(36) NOT NULL,
    "created_at"   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload"      JSON DEFAULT NULL,
    "metadata"     JSON DEFAULT NULL,
    "transaction_id" xid8 NOT NULL,
    PRIMARY KEY ("transaction_id", "offset")
);

CREATE TABLE watermill_offsets_events (
    consumer_group VARCHAR(255) NOT NULL,
    offset_acked BIGINT,
    last_processed_transaction_id xid8 NOT NULL,
    PRIMARY KEY (consumer_group)
);

-- +goose Down
DROP TABLE watermill_offsets_events;
DROP TABLE watermill_events;
DROP TABLE settings;
DROP TABLE lessons;
DROP TABLE course_modules;
DROP TABLE courses;
DROP TABLE api_keys;
DROP TABLE workspaces;
