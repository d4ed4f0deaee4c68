-- +goose NO TRANSACTION
-- +goose Up
-- Modules own their tables (docs/architecture.md, "Table ownership"): the foreign keys from
-- one module's table to another's go, those inside a module stay (the same keys as the
-- PostgreSQL migration drops; tests/schema_parity_test.go compares the two). They were all
-- ON DELETE NO ACTION over rows the application never deletes, so they only checked
-- inserts, and every use case checks its references first through the owning module's
-- published port. SQLite cannot drop a constraint: each table is rebuilt the documented
-- way (sqlite.org/lang_altertable.html), with foreign keys off, which works only outside a
-- transaction (hence NO TRANSACTION and the explicit BEGIN). The rebuilt table keeps its
-- columns in order, its rows, its unique constraints and its indexes.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE api_keys_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    name         TEXT NOT NULL,
    lookup       TEXT NOT NULL UNIQUE,
    secret_hash  BLOB NOT NULL,
    scopes       TEXT NOT NULL,
    per_minute   INTEGER NOT NULL,
    per_day      INTEGER NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    revoked_at   TIMESTAMP,
    last_used_at TIMESTAMP,
    last_four    TEXT NOT NULL DEFAULT ''
);
INSERT INTO api_keys_rebuilt SELECT * FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_rebuilt RENAME TO api_keys;
CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at DESC, id DESC);

CREATE TABLE courses_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
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
INSERT INTO courses_rebuilt SELECT * FROM courses;
DROP TABLE courses;
ALTER TABLE courses_rebuilt RENAME TO courses;
CREATE INDEX courses_published_page ON courses (workspace_id, created_at DESC, id DESC) WHERE status = 'published';

CREATE TABLE catalog_versions_rebuilt (
    workspace_id TEXT PRIMARY KEY,
    version      BIGINT NOT NULL
);
INSERT INTO catalog_versions_rebuilt SELECT * FROM catalog_versions;
DROP TABLE catalog_versions;
ALTER TABLE catalog_versions_rebuilt RENAME TO catalog_versions;

CREATE TABLE students_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    email        TEXT NOT NULL,
    email_lower  TEXT NOT NULL,
    first_name   TEXT NOT NULL DEFAULT '',
    last_name    TEXT NOT NULL DEFAULT '',
    external_id  TEXT NOT NULL DEFAULT '',
    metadata     TEXT NOT NULL DEFAULT '{}', -- a JSON object of strings
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    deleted_at   TIMESTAMP
);
INSERT INTO students_rebuilt SELECT * FROM students;
DROP TABLE students;
ALTER TABLE students_rebuilt RENAME TO students;
CREATE UNIQUE INDEX students_email_per_workspace ON students (workspace_id, email_lower) WHERE deleted_at IS NULL;
CREATE INDEX students_page ON students (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX students_updated ON students (workspace_id, updated_at) WHERE deleted_at IS NULL;

CREATE TABLE enrollments_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    student_id   TEXT NOT NULL,
    course_id    TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('active', 'revoked', 'completed')),
    source       TEXT NOT NULL CHECK (source IN ('api', 'order', 'operator')),
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    revoked_at   TIMESTAMP,
    completed_at TIMESTAMP,
    UNIQUE (workspace_id, student_id, course_id)
);
INSERT INTO enrollments_rebuilt SELECT * FROM enrollments;
DROP TABLE enrollments;
ALTER TABLE enrollments_rebuilt RENAME TO enrollments;
CREATE INDEX enrollments_by_created ON enrollments (workspace_id, created_at);

CREATE TABLE lesson_progress_rebuilt (
    workspace_id  TEXT NOT NULL,
    enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
    student_id    TEXT NOT NULL,
    course_id     TEXT NOT NULL,
    lesson_id     TEXT NOT NULL,
    completed_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (enrollment_id, lesson_id)
);
INSERT INTO lesson_progress_rebuilt SELECT * FROM lesson_progress;
DROP TABLE lesson_progress;
ALTER TABLE lesson_progress_rebuilt RENAME TO lesson_progress;
CREATE INDEX lesson_progress_by_completed ON lesson_progress (workspace_id, completed_at);

CREATE TABLE receipt_counters_rebuilt (
    workspace_id TEXT PRIMARY KEY,
    last_number  INTEGER NOT NULL
);
INSERT INTO receipt_counters_rebuilt SELECT * FROM receipt_counters;
DROP TABLE receipt_counters;
ALTER TABLE receipt_counters_rebuilt RENAME TO receipt_counters;

CREATE TABLE orders_rebuilt (
    id              TEXT PRIMARY KEY,
    workspace_id    TEXT NOT NULL,
    student_id      TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('paid', 'partially_refunded', 'refunded')),
    currency        TEXT NOT NULL,
    amount          INTEGER NOT NULL CHECK (amount >= 0),
    amount_refunded INTEGER NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
    receipt_number  TEXT NOT NULL,
    paid_at         TIMESTAMP NOT NULL,
    refunded_at     TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    UNIQUE (workspace_id, receipt_number)
);
INSERT INTO orders_rebuilt SELECT * FROM orders;
DROP TABLE orders;
ALTER TABLE orders_rebuilt RENAME TO orders;
CREATE INDEX orders_page ON orders (workspace_id, created_at DESC, id DESC);
CREATE INDEX orders_by_student ON orders (workspace_id, student_id, created_at DESC, id DESC);
CREATE INDEX orders_by_paid_at ON orders (workspace_id, paid_at);

CREATE TABLE order_items_rebuilt (
    order_id     TEXT NOT NULL REFERENCES orders (id),
    workspace_id TEXT NOT NULL,
    position     INTEGER NOT NULL,
    course_id    TEXT NOT NULL,
    title        TEXT NOT NULL,
    amount       INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (order_id, position),
    UNIQUE (order_id, course_id)
);
INSERT INTO order_items_rebuilt SELECT * FROM order_items;
DROP TABLE order_items;
ALTER TABLE order_items_rebuilt RENAME TO order_items;

CREATE TABLE order_entitlements_rebuilt (
    order_id      TEXT NOT NULL REFERENCES orders (id),
    workspace_id  TEXT NOT NULL,
    course_id     TEXT NOT NULL,
    enrollment_id TEXT NOT NULL,
    granted_at    TIMESTAMP NOT NULL,
    revoked_at    TIMESTAMP,
    PRIMARY KEY (order_id, course_id)
);
INSERT INTO order_entitlements_rebuilt SELECT * FROM order_entitlements;
DROP TABLE order_entitlements;
ALTER TABLE order_entitlements_rebuilt RENAME TO order_entitlements;
CREATE INDEX order_entitlements_by_enrollment ON order_entitlements (workspace_id, enrollment_id);

CREATE TABLE live_sessions_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    course_id    TEXT NOT NULL,
    title        TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('scheduled', 'live', 'ended')),
    started_at   TIMESTAMP,
    ended_at     TIMESTAMP,
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);
INSERT INTO live_sessions_rebuilt SELECT * FROM live_sessions;
DROP TABLE live_sessions;
ALTER TABLE live_sessions_rebuilt RENAME TO live_sessions;

CREATE TABLE recordings_rebuilt (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL,
    live_session_id  TEXT NOT NULL REFERENCES live_sessions (id),
    course_id        TEXT NOT NULL,
    duration_seconds INTEGER NOT NULL,
    created_at       TIMESTAMP NOT NULL
);
INSERT INTO recordings_rebuilt SELECT * FROM recordings;
DROP TABLE recordings;
ALTER TABLE recordings_rebuilt RENAME TO recordings;

CREATE TABLE certificates_rebuilt (
    id            TEXT PRIMARY KEY,
    workspace_id  TEXT NOT NULL,
    student_id    TEXT NOT NULL,
    course_id     TEXT NOT NULL,
    enrollment_id TEXT NOT NULL,
    issued_at     TIMESTAMP NOT NULL,
    UNIQUE (workspace_id, student_id, course_id)
);
INSERT INTO certificates_rebuilt SELECT * FROM certificates;
DROP TABLE certificates;
ALTER TABLE certificates_rebuilt RENAME TO certificates;

CREATE TABLE webhook_subscriptions_rebuilt (
    id                   TEXT PRIMARY KEY,
    workspace_id         TEXT NOT NULL,
    url                  TEXT NOT NULL,
    events               TEXT NOT NULL, -- space-separated event types
    status               TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
    disabled_reason      TEXT NOT NULL DEFAULT '',
    secret_sealed        BLOB NOT NULL,
    previous_sealed      BLOB,
    previous_expires_at  TIMESTAMP,
    failing_since        TIMESTAMP,
    created_at           TIMESTAMP NOT NULL,
    updated_at           TIMESTAMP NOT NULL,
    disabled_at          TIMESTAMP
);
INSERT INTO webhook_subscriptions_rebuilt SELECT * FROM webhook_subscriptions;
DROP TABLE webhook_subscriptions;
ALTER TABLE webhook_subscriptions_rebuilt RENAME TO webhook_subscriptions;
CREATE INDEX webhook_subscriptions_by_workspace ON webhook_subscriptions (workspace_id, created_at DESC, id DESC);

CREATE TABLE workspace_members_rebuilt (
    workspace_id TEXT NOT NULL,
    email        TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'developer')),
    invited_by   TEXT NOT NULL,
    invited_at   TIMESTAMP NOT NULL,
    joined_at    TIMESTAMP,
    PRIMARY KEY (workspace_id, email)
);
INSERT INTO workspace_members_rebuilt SELECT * FROM workspace_members;
DROP TABLE workspace_members;
ALTER TABLE workspace_members_rebuilt RENAME TO workspace_members;
CREATE INDEX workspace_members_by_email ON workspace_members (email);

COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- The same rebuilds with the keys back.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE api_keys_rebuilt (
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
    last_used_at TIMESTAMP,
    last_four    TEXT NOT NULL DEFAULT ''
);
INSERT INTO api_keys_rebuilt SELECT * FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_rebuilt RENAME TO api_keys;
CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at DESC, id DESC);

CREATE TABLE courses_rebuilt (
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
INSERT INTO courses_rebuilt SELECT * FROM courses;
DROP TABLE courses;
ALTER TABLE courses_rebuilt RENAME TO courses;
CREATE INDEX courses_published_page ON courses (workspace_id, created_at DESC, id DESC) WHERE status = 'published';

CREATE TABLE catalog_versions_rebuilt (
    workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id),
    version      BIGINT NOT NULL
);
INSERT INTO catalog_versions_rebuilt SELECT * FROM catalog_versions;
DROP TABLE catalog_versions;
ALTER TABLE catalog_versions_rebuilt RENAME TO catalog_versions;

CREATE TABLE students_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    email        TEXT NOT NULL,
    email_lower  TEXT NOT NULL,
    first_name   TEXT NOT NULL DEFAULT '',
    last_name    TEXT NOT NULL DEFAULT '',
    external_id  TEXT NOT NULL DEFAULT '',
    metadata     TEXT NOT NULL DEFAULT '{}', -- a JSON object of strings
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    deleted_at   TIMESTAMP
);
INSERT INTO students_rebuilt SELECT * FROM students;
DROP TABLE students;
ALTER TABLE students_rebuilt RENAME TO students;
CREATE UNIQUE INDEX students_email_per_workspace ON students (workspace_id, email_lower) WHERE deleted_at IS NULL;
CREATE INDEX students_page ON students (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX students_updated ON students (workspace_id, updated_at) WHERE deleted_at IS NULL;

CREATE TABLE enrollments_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    student_id   TEXT NOT NULL REFERENCES students (id),
    course_id    TEXT NOT NULL REFERENCES courses (id),
    status       TEXT NOT NULL CHECK (status IN ('active', 'revoked', 'completed')),
    source       TEXT NOT NULL CHECK (source IN ('api', 'order', 'operator')),
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    revoked_at   TIMESTAMP,
    completed_at TIMESTAMP,
    UNIQUE (workspace_id, student_id, course_id)
);
INSERT INTO enrollments_rebuilt SELECT * FROM enrollments;
DROP TABLE enrollments;
ALTER TABLE enrollments_rebuilt RENAME TO enrollments;
CREATE INDEX enrollments_by_created ON enrollments (workspace_id, created_at);

CREATE TABLE lesson_progress_rebuilt (
    workspace_id  TEXT NOT NULL,
    enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
    student_id    TEXT NOT NULL,
    course_id     TEXT NOT NULL,
    lesson_id     TEXT NOT NULL REFERENCES lessons (id),
    completed_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (enrollment_id, lesson_id)
);
INSERT INTO lesson_progress_rebuilt SELECT * FROM lesson_progress;
DROP TABLE lesson_progress;
ALTER TABLE lesson_progress_rebuilt RENAME TO lesson_progress;
CREATE INDEX lesson_progress_by_completed ON lesson_progress (workspace_id, completed_at);

CREATE TABLE receipt_counters_rebuilt (
    workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id),
    last_number  INTEGER NOT NULL
);
INSERT INTO receipt_counters_rebuilt SELECT * FROM receipt_counters;
DROP TABLE receipt_counters;
ALTER TABLE receipt_counters_rebuilt RENAME TO receipt_counters;

CREATE TABLE orders_rebuilt (
    id              TEXT PRIMARY KEY,
    workspace_id    TEXT NOT NULL REFERENCES workspaces (id),
    student_id      TEXT NOT NULL REFERENCES students (id),
    status          TEXT NOT NULL CHECK (status IN ('paid', 'partially_refunded', 'refunded')),
    currency        TEXT NOT NULL,
    amount          INTEGER NOT NULL CHECK (amount >= 0),
    amount_refunded INTEGER NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
    receipt_number  TEXT NOT NULL,
    paid_at         TIMESTAMP NOT NULL,
    refunded_at     TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    UNIQUE (workspace_id, receipt_number)
);
INSERT INTO orders_rebuilt SELECT * FROM orders;
DROP TABLE orders;
ALTER TABLE orders_rebuilt RENAME TO orders;
CREATE INDEX orders_page ON orders (workspace_id, created_at DESC, id DESC);
CREATE INDEX orders_by_student ON orders (workspace_id, student_id, created_at DESC, id DESC);
CREATE INDEX orders_by_paid_at ON orders (workspace_id, paid_at);

CREATE TABLE order_items_rebuilt (
    order_id     TEXT NOT NULL REFERENCES orders (id),
    workspace_id TEXT NOT NULL,
    position     INTEGER NOT NULL,
    course_id    TEXT NOT NULL REFERENCES courses (id),
    title        TEXT NOT NULL,
    amount       INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (order_id, position),
    UNIQUE (order_id, course_id)
);
INSERT INTO order_items_rebuilt SELECT * FROM order_items;
DROP TABLE order_items;
ALTER TABLE order_items_rebuilt RENAME TO order_items;

CREATE TABLE order_entitlements_rebuilt (
    order_id      TEXT NOT NULL REFERENCES orders (id),
    workspace_id  TEXT NOT NULL,
    course_id     TEXT NOT NULL,
    enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
    granted_at    TIMESTAMP NOT NULL,
    revoked_at    TIMESTAMP,
    PRIMARY KEY (order_id, course_id)
);
INSERT INTO order_entitlements_rebuilt SELECT * FROM order_entitlements;
DROP TABLE order_entitlements;
ALTER TABLE order_entitlements_rebuilt RENAME TO order_entitlements;
CREATE INDEX order_entitlements_by_enrollment ON order_entitlements (workspace_id, enrollment_id);

CREATE TABLE live_sessions_rebuilt (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    course_id    TEXT NOT NULL REFERENCES courses (id),
    title        TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('scheduled', 'live', 'ended')),
    started_at   TIMESTAMP,
    ended_at     TIMESTAMP,
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);
INSERT INTO live_sessions_rebuilt SELECT * FROM live_sessions;
DROP TABLE live_sessions;
ALTER TABLE live_sessions_rebuilt RENAME TO live_sessions;

CREATE TABLE recordings_rebuilt (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL REFERENCES workspaces (id),
    live_session_id  TEXT NOT NULL REFERENCES live_sessions (id),
    course_id        TEXT NOT NULL,
    duration_seconds INTEGER NOT NULL,
    created_at       TIMESTAMP NOT NULL
);
INSERT INTO recordings_rebuilt SELECT * FROM recordings;
DROP TABLE recordings;
ALTER TABLE recordings_rebuilt RENAME TO recordings;

CREATE TABLE certificates_rebuilt (
    id            TEXT PRIMARY KEY,
    workspace_id  TEXT NOT NULL REFERENCES workspaces (id),
    student_id    TEXT NOT NULL REFERENCES students (id),
    course_id     TEXT NOT NULL REFERENCES courses (id),
    enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
    issued_at     TIMESTAMP NOT NULL,
    UNIQUE (workspace_id, student_id, course_id)
);
INSERT INTO certificates_rebuilt SELECT * FROM certificates;
DROP TABLE certificates;
ALTER TABLE certificates_rebuilt RENAME TO certificates;

CREATE TABLE webhook_subscriptions_rebuilt (
    id                   TEXT PRIMARY KEY,
    workspace_id         TEXT NOT NULL REFERENCES workspaces (id),
    url                  TEXT NOT NULL,
    events               TEXT NOT NULL, -- space-separated event types
    status               TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
    disabled_reason      TEXT NOT NULL DEFAULT '',
    secret_sealed        BLOB NOT NULL,
    previous_sealed      BLOB,
    previous_expires_at  TIMESTAMP,
    failing_since        TIMESTAMP,
    created_at           TIMESTAMP NOT NULL,
    updated_at           TIMESTAMP NOT NULL,
    disabled_at          TIMESTAMP
);
INSERT INTO webhook_subscriptions_rebuilt SELECT * FROM webhook_subscriptions;
DROP TABLE webhook_subscriptions;
ALTER TABLE webhook_subscriptions_rebuilt RENAME TO webhook_subscriptions;
CREATE INDEX webhook_subscriptions_by_workspace ON webhook_subscriptions (workspace_id, created_at DESC, id DESC);

CREATE TABLE workspace_members_rebuilt (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    email        TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'developer')),
    invited_by   TEXT NOT NULL,
    invited_at   TIMESTAMP NOT NULL,
    joined_at    TIMESTAMP,
    PRIMARY KEY (workspace_id, email)
);
INSERT INTO workspace_members_rebuilt SELECT * FROM workspace_members;
DROP TABLE workspace_members;
ALTER TABLE workspace_members_rebuilt RENAME TO workspace_members;
CREATE INDEX workspace_members_by_email ON workspace_members (email);

COMMIT;
PRAGMA foreign_keys = ON;
