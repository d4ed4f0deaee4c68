// Package drain lets a subscriber close only after the event in flight is done, so that
// a stop never commits a batch under a running handler (router and forwarder both).
package drain
