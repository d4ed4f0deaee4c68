// Package eventbus is the project's event bus: domain events written to a transactional
// outbox (the table watermill_events, on the single Topic) and delivered to the consumers
// that ports declare (events.Consumer), over watermill-sql or NATS JetStream. This package
// holds the vocabulary the parts share (Partitions, Part, Transport, Subscription, the
// message metadata keys); the parts live in subpackages:
//
//   - outbox: Publish in the caller's transaction, the inline consumers, retention.
//   - router: the consumers' side: the router and its lease runner, delivery with retries
//     and parking, the ledger, positions, replay, rebuild and retire.
//   - lease: the lease table (event_layout, event_instances, event_leases) and the
//     partition layout (its outbox index, the positions of a new layout).
//   - sqltransport: the default Transport, a watermill-sql subscriber per part.
//   - natstransport: the JetStream broker, its Transport and the outbox forwarder.
//   - wakeup: in-process and PostgreSQL (LISTEN/NOTIFY) signals that events committed.
//   - schema: watermill-sql's schema and offsets adapters for SQLite and PostgreSQL, and
//     the rows of consumer positions.
//
// The invariants every part keeps (docs/events.md explains them; tests/events_*_test.go
// prove them on SQLite and PostgreSQL):
//
//   - Exactly-once effect through the ledger. Delivery is at least once (a crash, a nack
//     or an expired JetStream ack brings an event again); a consumer's effect commits in
//     the same transaction as its event_processed row, which the attempt writes first, so
//     a redelivery finds the row and changes nothing. An event that keeps failing is
//     parked (event_failures) after router.Config.Attempts tries and acknowledged; a replay
//     applies it under the same ledger.
//   - Per-workspace order. Events are partitioned by workspace (events.PartitionOf); each
//     Part (consumer, partition) is consumed by one subscriber at a time, in stream order,
//     one event after another. A change of the partition count waits until no part of the
//     old layout is held, and the new parts start from the laggard of the old positions.
//   - Lease takeover. A Part runs only on the instance that holds its lease, renewed every
//     Heartbeat; a lease not renewed for LeaseTTL is claimed by another instance, and an
//     instance that cannot renew stops its parts before that can happen. Live instances
//     share each consumer's parts fairly.
//   - Stop order. Router.Stop stops the lease loop, lets every part finish its event in
//     flight and commit what was acknowledged, gives the leases back, then closes the
//     message router. The composition root stops the forwarder before the router, and the
//     router before retention and the wakeup listener, and all of them before the database
//     and the broker connection close.
//   - Inline consumers (events.Consumer.Inline) run inside Publish, in the publishing
//     transaction: their effect commits or vanishes with the event, and no consumer group
//     runs them.
package eventbus
