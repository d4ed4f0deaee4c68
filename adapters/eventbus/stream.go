package eventbus

// Topic is the single stream of domain events; one topic keeps a total order that
// projections rely on. Consumers ack the types they do not handle.
const Topic = "events"

// Message metadata keys.
const (
	MetaType        = "type"
	MetaWorkspaceID = "workspace_id"
	MetaVersion     = "schema_version"
	// MetaTraceParent is the W3C traceparent of the publishing request (absent when it
	// had none): the consumers' spans continue its trace.
	MetaTraceParent = "traceparent"
)

// ForwarderGroup is the outbox's consumer group that moves events to JetStream: its
// position in watermill_offsets_events is what has been forwarded (and retention waits
// for it like for any group).
const ForwarderGroup = "jetstream-forwarder"
