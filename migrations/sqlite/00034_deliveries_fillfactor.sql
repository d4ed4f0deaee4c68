-- +goose Up
-- PostgreSQL's 00034 leaves room on webhook_deliveries' pages for the recording's update
-- (fillfactor); SQLite has no such setting. This file keeps the two dialects' versions aligned.
SELECT 1;

-- +goose Down
SELECT 1;
