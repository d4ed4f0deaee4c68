// Package outbox writes domain events to the outbox table in the caller's transaction
// (Outbox.Publish): they commit or vanish with the change that caused them. Publish also
// runs the inline consumers in that transaction and signals the wakeup (in-process after
// the commit, and pg_notify in the same statement on PostgreSQL). Retention prunes the
// events every consumer group has consumed.
package outbox
