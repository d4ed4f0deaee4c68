// Package lease keeps the lease table that hands each (consumer, partition) part to one
// instance at a time: the deployment's partition count (event_layout), the instances'
// heartbeats (event_instances) and the leases (event_leases). It also prepares a layout:
// the outbox index its partition polls seek on, and the first positions of a new layout's
// parts. The runner that uses the store is router.Router's (router/leases.go).
package lease
