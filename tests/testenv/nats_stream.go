package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// UseNATSIn is UseNATS as a configure function, for starters that already decorate the
// configuration (StartWebhooks): events through the NATS server at url under a stream of
// the test's own.
func UseNATSIn(t testing.TB, url string) func(*compose.Config) {
	t.Helper()
	prefix := newStreamPrefix(t, url)
	return func(c *compose.Config) { c.EventsBroker, c.EventsStream = url, prefix }
}
