// Package feed reads the outbox for the events feed (application/feed): one workspace's
// public events in stream order after a position, never one that an older transaction
// can still precede (docs/events.md, "The events feed").
//
// The order is the outbox's: (transaction_id, offset) on PostgreSQL, offset on SQLite.
// On PostgreSQL a transaction's xid is assigned before it commits, so an event may commit
// after a later-numbered one was read; a read therefore only takes rows whose transaction
// is below the snapshot's xmin (every transaction below it has ended), the rule
// watermill-sql's subscriber follows, and reports that horizon: every event committed
// later has a transaction at or above it. SQLite has one writer, so what a read sees is
// a prefix of the stream and its horizon is the highest offset.
package feed
