-- +goose Up
-- Instants are TIMESTAMP columns holding UTC text ("2006-01-02 15:04:05.999999+00:00"):
-- the driver parses them back into time.Time, and UTC text sorts in time order.
CREATE TABLE workspaces (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    owner_email TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    name         TEXT NOT NULL,
    lookup       TEXT NOT NULL UNIQUE,
    secret_hash  BLOB NOT NULL,
    scopes       TEXT NOT NULL,
    per_minute   INTEGER NOT NULL,
    per_day      INTEGER NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    revoked_at   TIMESTAMP,
    last_used_at TIMESTAMP
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
    published_at TIMESTAMP,
    archived_at  TIMESTAMP,
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    UNIQUE (workspace_id, slug)
);
CREATE INDEX courses_published_page ON courses (workspace_id, created_at DESC, id DESC) WHERE status = 'published';

CREATE TABLE course_modules (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    course_id    TEXT NOT NULL REFERENCES courses (id),
    title        TEXT NOT NULL,
    position     INTEGER NOT NULL,
    created_at   TIMESTAMP NOT NULL,
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
    created_at       TIMESTAMP NOT NULL,
    UNIQUE (module_id, position)
);
CREATE INDEX lessons_by_course ON lessons (course_id);

-- Service-wide facts, such as which workspace the demo seeded.
CREATE TABLE settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- The outbox for the topic "events", in the layout of adapters/watermill's SQLite schema.
-- SQLite serializes writers, so AUTOINCREMENT offsets follow commit order.
CREATE TABLE watermill_events (
    "offset"   INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    payload    BLOB,
    metadata   TEXT
);

CREATE TABLE watermill_offsets_events (
    consumer_group TEXT PRIMARY KEY,
    offset_acked   INTEGER NOT NULL DEFAULT 0
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
