// Package consumers holds the inbound side of the event stream: projections, the webhook
// fan-out and cross-module reactions. Each events.Consumer is one watermill consumer group.
package consumers
