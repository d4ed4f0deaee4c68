// Package router runs the consumers. Router holds, per (consumer, partition) part this
// instance has a lease on, one handler under a watermill message router fed by the
// Transport's subscriber; its lease runner (leases.go) renews, takes over and rebalances
// the parts. Each event is applied in a savepoint with its ledger row (Ledger, the
// exactly-once effect), retried with backoff, and parked when it keeps failing. Positions
// answers where consumer groups stand; the ledger also replays parked events, rebuilds a
// projection from the outbox and retires the group of a consumer that became inline.
package router
