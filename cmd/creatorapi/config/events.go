package config

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
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

// MaxEventsReplicas is JetStream's own bound on the replicas of a stream.
const MaxEventsReplicas = 5

// parseEventsReplicas reads CREATORAPI_EVENTS_REPLICAS: how many servers of a JetStream
// cluster hold the stream and each durable consumer (1 to 5; more than 1 needs a cluster
// of at least that many servers).
func parseEventsReplicas(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxEventsReplicas {
		return 0, fmt.Errorf("CREATORAPI_EVENTS_REPLICAS must be a whole number from 1 to %d (3 for a cluster of three NATS servers)", MaxEventsReplicas)
	}
	return n, nil
}
