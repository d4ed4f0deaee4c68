package sqldb

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
)

// Register exports the caches' state on the operator's /metrics: creatorapi_cache_trusted
// (1 while this instance serves keys and catalogue versions from memory; 0 while its
// invalidation channel is unconfirmed and every read asks the database) and
// creatorapi_cache_ack_timeouts_total (invalidations that stopped waiting before every
// live instance acknowledged).
func (c *Caches) Register(registry prometheus.Registerer) error {
	trusted := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "creatorapi_cache_trusted",
		Help: "1 while this instance may serve API keys and catalogue versions from memory (its invalidation channel confirmed within the last second).",
	}, func() float64 {
		if c.Trusted(context.Background()) {
			return 1
		}
		return 0
	})
	timeouts := prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "creatorapi_cache_ack_timeouts_total",
		Help: "Invalidations sent by this process whose wait ended before every live instance acknowledged (those instances had stopped trusting their caches).",
	}, func() float64 { return float64(c.AckTimeouts()) })
	for _, m := range []prometheus.Collector{trusted, timeouts} {
		if err := registry.Register(m); err != nil {
			return err
		}
	}
	return nil
}
