// Package natstransport carries the event stream over NATS JetStream: Broker owns the
// connection and the stream, Forwarder moves the outbox to the stream (the outbox stays
// the source of truth), and JetStreamTransport gives each part a durable consumer read in
// batches, each applied in one transaction and acknowledged after the router committed it.
package natstransport
