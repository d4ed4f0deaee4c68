// Package background runs the service's background work: a Worker has Start and Stop,
// a Group starts its workers in order and stops them in reverse, and Every, Loop and
// AtStart make workers of a periodic job, a loop with a stop channel and a start-time
// task; Session holds one connection and reconnects it with a backoff. The composition root lists the service's workers in one Group
// (cmd/creatorapi/compose/workers.go).
package background
