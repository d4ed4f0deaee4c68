package config

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// streamName is what JetStream accepts in stream and consumer names and what keeps a
// subject token whole: no dots, wildcards, spaces or path separators.
var streamName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// checkEventsBroker validates CREATORAPI_EVENTS_BROKER (empty: the SQL transport) and
// CREATORAPI_EVENTS_STREAM.
func checkEventsBroker(broker, stream string) error {
	if !streamName.MatchString(stream) {
		return fmt.Errorf("CREATORAPI_EVENTS_STREAM must be 1 to 32 letters, digits, '-' or '_' (it prefixes JetStream names and subjects)")
	}
	if broker == "" {
		return nil
	}
	for _, one := range strings.Split(broker, ",") { // a cluster: several seed URLs
		u, err := url.Parse(strings.TrimSpace(one))
		if err != nil || u.Scheme != "nats" || u.Host == "" {
			return fmt.Errorf("CREATORAPI_EVENTS_BROKER must be NATS URLs such as nats://127.0.0.1:4222 (several separated by commas)")
		}
	}
	return nil
}
