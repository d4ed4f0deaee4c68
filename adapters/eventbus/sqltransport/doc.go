// Package sqltransport is the default eventbus.Transport: each part is a watermill-sql
// subscriber polling the outbox for its partition, its position the consumer group
// eventbus.Part.Group, its batch transaction the one the router applies events in, so
// that effects, ledger rows and position commit together. A gate keeps an idle
// subscriber asleep until a wakeup of its partition, and turns a failed transaction into
// a rollback of the whole batch (internal/batchtx).
package sqltransport
