package testenv

import (
	"testing"

	"go.uber.org/fx"
)

// The long component tests (a thousand operations, a built binary killed and restarted)
// spend most of their time waiting: on round trips, on a stalled receiver, on a lease to
// expire. Their subtests share nothing but the process (each has its own database, data
// folder, ports and stream prefix), so these variants run them side by side. Only tests
// that keep to that rule use them: no t.Setenv, no package state, no fixed ports.

// EachDatabaseParallel is EachDatabase with the SQLite and PostgreSQL runs in parallel.
func EachDatabaseParallel(t *testing.T, fn func(t *testing.T, databaseURL string)) {
	EachDatabase(t, func(t *testing.T, databaseURL string) {
		t.Parallel()
		fn(t, databaseURL)
	})
}

// EachTransportParallel is EachTransport with its three runs (SQL on SQLite, SQL on
// PostgreSQL, JetStream on PostgreSQL) in parallel.
func EachTransportParallel(t *testing.T, fn func(t *testing.T, databaseURL string, tr Transport)) {
	t.Run(SQLTransport, func(t *testing.T) {
		t.Parallel()
		EachDatabaseParallel(t, func(t *testing.T, databaseURL string) {
			fn(t, databaseURL, Transport{Name: SQLTransport, Option: fx.Options()})
		})
	})
	t.Run(NATSTransport, func(t *testing.T) {
		t.Parallel()
		url := NATSURL(t)
		fn(t, NewPostgresURL(t), Transport{Name: NATSTransport, Option: UseNATS(t, url)})
	})
}
