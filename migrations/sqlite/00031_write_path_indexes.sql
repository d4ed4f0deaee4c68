-- +goose Up
-- PostgreSQL turns its retention-only indexes into BRIN here (see its 00031). SQLite has no
-- BRIN: its b-trees of the same names, columns and predicates stay.
SELECT 1;

-- +goose Down
SELECT 1;
