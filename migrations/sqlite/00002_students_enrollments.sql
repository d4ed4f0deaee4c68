-- +goose Up
-- Students are soft-deleted (deleted_at): the row stays for enrollment and order history,
-- and the partial unique index frees the address for a new student.
-- email_lower is the address folded by the application (strings.ToLower), the same on
-- both engines; the unique index on it makes concurrent creates race-safe.
CREATE TABLE students (
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
CREATE UNIQUE INDEX students_email_per_workspace ON students (workspace_id, email_lower) WHERE deleted_at IS NULL;
CREATE INDEX students_page ON students (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX students_updated ON students (workspace_id, updated_at) WHERE deleted_at IS NULL;

-- One enrollment per (student, course): POST /enrollments relies on this constraint
-- (INSERT ... ON CONFLICT DO NOTHING), never on a check before the insert.
CREATE TABLE enrollments (
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
CREATE INDEX enrollments_by_created ON enrollments (workspace_id, created_at);

-- One row per lesson completed under an enrollment (idempotent per lesson).
CREATE TABLE lesson_progress (
    workspace_id  TEXT NOT NULL,
    enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
    student_id    TEXT NOT NULL,
    course_id     TEXT NOT NULL,
    lesson_id     TEXT NOT NULL REFERENCES lessons (id),
    completed_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (enrollment_id, lesson_id)
);
CREATE INDEX lesson_progress_by_completed ON lesson_progress (workspace_id, completed_at);

-- +goose Down
DROP TABLE lesson_progress;
DROP TABLE enrollments;
DROP TABLE students;
