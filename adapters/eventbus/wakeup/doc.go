// Package wakeup tells idle subscribers that events may be waiting: Wakeup signals this
// instance's subscribers of the partitions (and event types) a commit published, and on
// PostgreSQL Listener does the same for commits of other instances (LISTEN on
// NotifyChannel). A signal is level-triggered, so one sent while a subscriber polls is
// never lost.
package wakeup
