-- +goose Up
-- A delivery row is updated once soon after its insert (the recording of its result), and
-- that update cannot be HOT (it changes status and next_attempt_at, both indexed). With
-- room left on the page, the new version goes to the same page, where PostgreSQL logs only
-- what differs from the old one (the id, endpoint, event and payload, about 600 of the
-- row's 760 bytes, stay out of the WAL record); on a full page it logs the whole row on
-- another. Inserts fill pages to half, so the update finds room. Measured
-- (docs/performance.md, "PostgreSQL's work per delivered event"): the recording's WAL
-- 1,440-1,570 -> 1,100 bytes a delivered event, the server's 5,800-5,860 -> 5,350-5,380
-- at saturation; fillfactor 70 saved half of that. Cost: the heap holds fewer rows a page,
-- 1.5x in a short run, up to 2x once vacuum has reclaimed the old versions.
ALTER TABLE webhook_deliveries SET (fillfactor = 50);

-- +goose Down
ALTER TABLE webhook_deliveries RESET (fillfactor);
