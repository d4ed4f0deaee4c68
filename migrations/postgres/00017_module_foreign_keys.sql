-- +goose Up
-- Modules own their tables (docs/architecture.md, "Table ownership"): a foreign key from one
-- module's table to another's tied their adapters to one database, so that no subset of
-- modules could run on other adapters (memory twins, another database). These keys go; the
-- ones inside a module stay. Every key dropped here was ON DELETE NO ACTION and the
-- application deletes none of the rows they point at (students are soft-deleted, courses
-- archived, workspaces, lessons and enrollments are never deleted), so they only checked
-- inserts: each use case that stores such a reference checks it first through the owning
-- module's published port, in its transaction (docs/architecture.md, "Module layout").
-- Workspaces: every tenant-scoped table.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_workspace_id_fkey;
ALTER TABLE courses DROP CONSTRAINT courses_workspace_id_fkey;
ALTER TABLE catalog_versions DROP CONSTRAINT catalog_versions_workspace_id_fkey;
ALTER TABLE students DROP CONSTRAINT students_workspace_id_fkey;
ALTER TABLE enrollments DROP CONSTRAINT enrollments_workspace_id_fkey;
ALTER TABLE receipt_counters DROP CONSTRAINT receipt_counters_workspace_id_fkey;
ALTER TABLE orders DROP CONSTRAINT orders_workspace_id_fkey;
ALTER TABLE live_sessions DROP CONSTRAINT live_sessions_workspace_id_fkey;
ALTER TABLE recordings DROP CONSTRAINT recordings_workspace_id_fkey;
ALTER TABLE certificates DROP CONSTRAINT certificates_workspace_id_fkey;
ALTER TABLE webhook_subscriptions DROP CONSTRAINT webhook_subscriptions_workspace_id_fkey;
ALTER TABLE workspace_members DROP CONSTRAINT workspace_members_workspace_id_fkey;
-- Students, courses, lessons and enrollments named by other modules.
ALTER TABLE enrollments DROP CONSTRAINT enrollments_student_id_fkey;
ALTER TABLE enrollments DROP CONSTRAINT enrollments_course_id_fkey;
ALTER TABLE lesson_progress DROP CONSTRAINT lesson_progress_lesson_id_fkey;
ALTER TABLE orders DROP CONSTRAINT orders_student_id_fkey;
ALTER TABLE order_items DROP CONSTRAINT order_items_course_id_fkey;
ALTER TABLE order_entitlements DROP CONSTRAINT order_entitlements_enrollment_id_fkey;
ALTER TABLE live_sessions DROP CONSTRAINT live_sessions_course_id_fkey;
ALTER TABLE certificates DROP CONSTRAINT certificates_student_id_fkey;
ALTER TABLE certificates DROP CONSTRAINT certificates_course_id_fkey;
ALTER TABLE certificates DROP CONSTRAINT certificates_enrollment_id_fkey;

-- +goose Down
-- Fails if a row names what does not exist (rows written by modules on other adapters).
ALTER TABLE certificates ADD CONSTRAINT certificates_enrollment_id_fkey FOREIGN KEY (enrollment_id) REFERENCES enrollments (id);
ALTER TABLE certificates ADD CONSTRAINT certificates_course_id_fkey FOREIGN KEY (course_id) REFERENCES courses (id);
ALTER TABLE certificates ADD CONSTRAINT certificates_student_id_fkey FOREIGN KEY (student_id) REFERENCES students (id);
ALTER TABLE live_sessions ADD CONSTRAINT live_sessions_course_id_fkey FOREIGN KEY (course_id) REFERENCES courses (id);
ALTER TABLE order_entitlements ADD CONSTRAINT order_entitlements_enrollment_id_fkey FOREIGN KEY (enrollment_id) REFERENCES enrollments (id);
ALTER TABLE order_items ADD CONSTRAINT order_items_course_id_fkey FOREIGN KEY (course_id) REFERENCES courses (id);
ALTER TABLE orders ADD CONSTRAINT orders_student_id_fkey FOREIGN KEY (student_id) REFERENCES students (id);
ALTER TABLE lesson_progress ADD CONSTRAINT lesson_progress_lesson_id_fkey FOREIGN KEY (lesson_id) REFERENCES lessons (id);
ALTER TABLE enrollments ADD CONSTRAINT enrollments_course_id_fkey FOREIGN KEY (course_id) REFERENCES courses (id);
ALTER TABLE enrollments ADD CONSTRAINT enrollments_student_id_fkey FOREIGN KEY (student_id) REFERENCES students (id);
ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE certificates ADD CONSTRAINT certificates_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE recordings ADD CONSTRAINT recordings_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE live_sessions ADD CONSTRAINT live_sessions_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE orders ADD CONSTRAINT orders_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE receipt_counters ADD CONSTRAINT receipt_counters_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE enrollments ADD CONSTRAINT enrollments_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE students ADD CONSTRAINT students_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE catalog_versions ADD CONSTRAINT catalog_versions_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE courses ADD CONSTRAINT courses_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id);
