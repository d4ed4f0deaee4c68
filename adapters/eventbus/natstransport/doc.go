// Package natstransport carries the event stream over NATS JetStream: Broker owns the
// connection and the stream, Forwarder moves the outbox to the stream (the outbox stays
// the source of truth), and JetStreamTransport gives each part a durable consumer with one
// event unacknowledged at a time, acknowledged after the router committed its effect.
package natstransport
