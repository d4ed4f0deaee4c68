package natstransport

import "github.com/prometheus/client_golang/prometheus"

// Register exports on the operator's /metrics what this instance's parts took from the
// broker: creatorapi_events_broker_messages_total, every message delivered to them,
// redeliveries included. Summed over the instances and set against the events each
// consumer applied, it is the duplicate deliveries: the servers' own counters are a
// consumer leader's, and one elected after its predecessor died counts from a replica's
// state, which may lag what was sent.
func (t *JetStreamTransport) Register(registry prometheus.Registerer) error {
	return registry.Register(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "creatorapi_events_broker_messages_total",
		Help: "Messages this instance's consumer parts received from the event broker, redeliveries included.",
	}, func() float64 { return float64(t.received.Load()) }))
}
