-- +goose Up
-- Receipt numbers: one counter row per workspace, bumped by an upsert whose row lock
-- serializes concurrent orders of the workspace until commit (no duplicates, no gaps).
CREATE TABLE receipt_counters (
    workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id),
    last_number  BIGINT NOT NULL
);

-- Money is BIGINT minor units. The CHECKs are the last line against a refund race.
CREATE TABLE orders (
    id              TEXT PRIMARY KEY,
    workspace_id    TEXT NOT NULL REFERENCES workspaces (id),
    student_id      TEXT NOT NULL REFERENCES students (id),
    status          TEXT NOT NULL CHECK (status IN ('paid', 'partially_refunded', 'refunded')),
    currency        TEXT NOT NULL,
    amount          BIGINT NOT NULL CHECK (amount >= 0),
    amount_refunded BIGINT NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
    receipt_number  TEXT NOT NULL,
    paid_at         TIMESTAMPTZ NOT NULL,
    refunded_at     TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (workspace_id, receipt_number)
);
CREATE INDEX orders_page ON orders (workspace_id, created_at DESC, id DESC);
CREATE INDEX orders_by_student ON orders (workspace_id, student_id, created_at DESC, id DESC);
CREATE INDEX orders_by_paid_at ON orders (workspace_id, paid_at);

CREATE TABLE order_items (
    order_id     TEXT NOT NULL REFERENCES orders (id),
    workspace_id TEXT NOT NULL,
    position     INTEGER NOT NULL,
    course_id    TEXT NOT NULL REFERENCES courses (id),
    title        TEXT NOT NULL,
    amount       BIGINT NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (order_id, position),
    UNIQUE (order_id, course_id)
);

CREATE TABLE order_entitlements (
    order_id      TEXT NOT NULL REFERENCES orders (id),
    workspace_id  TEXT NOT NULL,
    course_id     TEXT NOT NULL,
    enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
    granted_at    TIMESTAMPTZ NOT NULL,
    revoked_at    TIMESTAMPTZ,
    PRIMARY KEY (order_id, course_id)
);

-- The payment (seq 1) and each refund, append-only.
CREATE TABLE order_history (
    order_id     TEXT NOT NULL REFERENCES orders (id),
    workspace_id TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('paid', 'refunded')),
    amount       BIGINT NOT NULL CHECK (amount >= 0),
    at           TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (order_id, seq)
);
CREATE INDEX order_history_by_time ON order_history (workspace_id, at);

CREATE TABLE live_sessions (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    course_id    TEXT NOT NULL REFERENCES courses (id),
    title        TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('scheduled', 'live', 'ended')),
    started_at   TIMESTAMPTZ,
    ended_at     TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);

CREATE TABLE recordings (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL REFERENCES workspaces (id),
    live_session_id  TEXT NOT NULL REFERENCES live_sessions (id),
    course_id        TEXT NOT NULL,
    duration_seconds INTEGER NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL
);

-- One certificate per student and course: the constraint makes issuing idempotent.
CREATE TABLE certificates (
    id            TEXT PRIMARY KEY,
    workspace_id  TEXT NOT NULL REFERENCES workspaces (id),
    student_id    TEXT NOT NULL REFERENCES students (id),
    course_id     TEXT NOT NULL REFERENCES courses (id),
    enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
    issued_at     TIMESTAMPTZ NOT NULL,
    UNIQUE (workspace_id, student_id, course_id)
);

-- +goose Down
DROP TABLE certificates;
DROP TABLE recordings;
DROP TABLE live_sessions;
DROP TABLE order_history;
DROP TABLE order_entitlements;
DROP TABLE order_items;
DROP TABLE orders;
DROP TABLE receipt_counters;
