package web

import (
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// Metrics counts requests and measures latency per listener, route template and status.
// Labels use the route template (/api/v1/courses/:id), never the raw path, so that the
// number of series stays bounded.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	registry *prometheus.Registry
	mu       sync.RWMutex
	series   map[seriesKey]series // resolved once per label set: no label hashing per request
}

type seriesKey struct {
	listener, method, route string
	status                  int
}

type series struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// NewMetrics registers the HTTP metrics and the Go and process collectors on registry.
func NewMetrics(registry *prometheus.Registry) (*Metrics, error) {
	m := &Metrics{
		registry: registry,
		series:   map[seriesKey]series{},
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "creatorapi_http_requests_total", Help: "HTTP requests by listener, method, route and status.",
		}, []string{"listener", "method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "creatorapi_http_request_duration_seconds", Help: "HTTP request latency by listener and route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"listener", "route"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.latency, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		if err := registry.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Middleware observes every request of the listener, errors included.
func (m *Metrics) Middleware(listener string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		status := c.Response().StatusCode()
		if err != nil {
			if p, _ := ProblemOf(err); p != nil {
				status = p.Status
			}
		}
		s := m.of(seriesKey{listener: listener, method: c.Method(), route: c.Route().Path, status: status})
		s.requests.Inc()
		s.latency.Observe(time.Since(start).Seconds())
		return err
	}
}

// of returns the series of k, resolving its labels the first time only.
func (m *Metrics) of(k seriesKey) series {
	m.mu.RLock()
	s, ok := m.series[k]
	m.mu.RUnlock()
	if ok {
		return s
	}
	s = series{
		requests: m.requests.WithLabelValues(k.listener, k.method, k.route, strconv.Itoa(k.status)),
		latency:  m.latency.WithLabelValues(k.listener, k.route),
	}
	m.mu.Lock()
	m.series[k] = s
	m.mu.Unlock()
	return s
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() fiber.Handler {
	h := fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{}))
	return func(c *fiber.Ctx) error {
		h(c.Context())
		return nil
	}
}
