package ratelimit

import "github.com/prometheus/client_golang/prometheus"

// Register exports the degraded mode on the operator's /metrics:
// creatorapi_ratelimit_degraded (1 while this instance counts in memory because the
// shared store is away) and creatorapi_ratelimit_store_outages_total (switches to memory).
func (r *Resilient) Register(registry prometheus.Registerer) error {
	degraded := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "creatorapi_ratelimit_degraded",
		Help: "1 while the shared rate-limit store (Redis) is unreachable and this instance counts quotas in its own memory.",
	}, func() float64 {
		if r.Degraded() {
			return 1
		}
		return 0
	})
	outages := prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "creatorapi_ratelimit_store_outages_total",
		Help: "Times this instance switched to counting in memory because the shared rate-limit store did not answer.",
	}, func() float64 { return float64(r.Outages()) })
	for _, c := range []prometheus.Collector{degraded, outages} {
		if err := registry.Register(c); err != nil {
			return err
		}
	}
	return nil
}
