package observe

import "github.com/prometheus/client_golang/prometheus"

// RegisterBuildInfo exports creatorapi_build_info{version, revision, goversion} = 1, the
// usual way to see which build each instance runs.
func RegisterBuildInfo(registry *prometheus.Registry, version, revision, goVersion string) error {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "creatorapi_build_info",
		Help:        "The running build: version, VCS revision and Go version as labels; always 1.",
		ConstLabels: prometheus.Labels{"version": version, "revision": revision, "goversion": goVersion},
	})
	g.Set(1)
	return registry.Register(g)
}
