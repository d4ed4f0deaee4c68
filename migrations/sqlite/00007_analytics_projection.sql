-- +goose Up
-- The analytics read model, fed by the consumer group "analytics-projection" in the
-- subscriber's transaction (docs/events.md). Days are UTC days since 1970-01-01 (an
-- integer on both engines). A 366-day summary sums at most 366 rows per currency and 366
-- activity rows, found by the primary keys' (workspace_id, day) prefix. WITHOUT ROWID
-- clusters the rows by that key, so a window reads neighbouring pages, not one per row.

-- Money per workspace, UTC day and currency: sales on the day paid, refunds on the day made.
CREATE TABLE analytics_revenue_daily (
    workspace_id TEXT NOT NULL,
    day          INTEGER NOT NULL,
    currency     TEXT NOT NULL,
    gross        BIGINT NOT NULL DEFAULT 0,
    refunded     BIGINT NOT NULL DEFAULT 0,
    orders       BIGINT NOT NULL DEFAULT 0,
    refunds      BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, day, currency)
) WITHOUT ROWID;

-- Activity per workspace and UTC day. enrollments_completed is on the completion day;
-- cohort_completed on the enrollment's creation day (completionRate's numerator).
CREATE TABLE analytics_activity_daily (
    workspace_id          TEXT NOT NULL,
    day                   INTEGER NOT NULL,
    students_new          BIGINT NOT NULL DEFAULT 0,
    enrollments_created   BIGINT NOT NULL DEFAULT 0,
    enrollments_revoked   BIGINT NOT NULL DEFAULT 0,
    enrollments_completed BIGINT NOT NULL DEFAULT 0,
    cohort_completed      BIGINT NOT NULL DEFAULT 0,
    lessons_completed     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, day)
) WITHOUT ROWID;

-- What the projection knows of each enrollment: a reactivation (enrollment.created again)
-- is not a new enrollment, and it takes back the count of the revocation it undoes.
CREATE TABLE analytics_enrollments (
    workspace_id  TEXT NOT NULL,
    enrollment_id TEXT NOT NULL,
    revoked_day   INTEGER,
    PRIMARY KEY (workspace_id, enrollment_id)
) WITHOUT ROWID;

-- How far the projection got: the last event it applied (asOf when it lags behind).
CREATE TABLE analytics_progress (
    consumer      TEXT PRIMARY KEY,
    last_event_id TEXT NOT NULL,
    last_event_at TIMESTAMP NOT NULL,
    applied_at    TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE analytics_progress;
DROP TABLE analytics_enrollments;
DROP TABLE analytics_activity_daily;
DROP TABLE analytics_revenue_daily;
