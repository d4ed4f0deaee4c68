package web

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Check is one thing an instance needs before it takes traffic (the database, Redis,
// the schema version). Run returns nil when it is fine.
type Check struct {
	Name string
	Run  func(ctx context.Context) error
}

// Unready is a failure whose text is safe to show on /readyz (a schema version, a state);
// any other error is shown as "unavailable" and logged, so that no address or driver
// message leaks on the public listener.
type Unready string

func (u Unready) Error() string { return string(u) }

// Degraded is a failure the instance serves through (Redis away: rate limits counted per
// instance): /readyz still answers 200, with status "degraded", the check named in
// degraded, and the text shown as the check's state.
type Degraded string

func (d Degraded) Error() string { return string(d) }

// checkTimeout bounds each check, so that a probe answers even when a dependency hangs.
const checkTimeout = 2 * time.Second

// Readiness answers /readyz: 200 when every check passes, 503 naming the failed ones,
// and 503 from the moment the instance starts draining, so that a load balancer stops
// sending before the listener closes.
type Readiness struct {
	checks   []Check
	logger   *slog.Logger
	draining atomic.Bool
}

// NewReadiness builds the probe over checks, run in order.
func NewReadiness(logger *slog.Logger, checks ...Check) *Readiness {
	return &Readiness{checks: checks, logger: logger}
}

// Drain makes every later probe answer 503 "draining".
func (r *Readiness) Drain() { r.draining.Store(true) }

// ReadyReport is /readyz's answer: status ready, degraded (still ready: 200), unready or
// draining; failed names the checks that did not pass, degraded those served through;
// checks maps every check to "ok" or why not.
type ReadyReport struct {
	Status   string            `json:"status"`
	Failed   []string          `json:"failed,omitempty"`
	Degraded []string          `json:"degraded,omitempty"`
	Checks   map[string]string `json:"checks"`
}

// Handler serves /readyz.
func (r *Readiness) Handler() fiber.Handler {
	return func(c *fiber.Ctx) error {
		body := r.Probe(c.UserContext())
		c.Set(fiber.HeaderCacheControl, "no-store")
		if body.Status != "ready" && body.Status != "degraded" {
			return c.Status(fiber.StatusServiceUnavailable).JSON(body)
		}
		return c.JSON(body)
	}
}

// Probe runs the checks.
func (r *Readiness) Probe(ctx context.Context) ReadyReport {
	body := ReadyReport{Status: "ready", Checks: map[string]string{}}
	if r.draining.Load() {
		body.Status = "draining"
		body.Failed = append(body.Failed, "shutdown")
		body.Checks["shutdown"] = "draining"
	}
	for _, ch := range r.checks {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		err := ch.Run(cctx)
		cancel()
		if err == nil {
			body.Checks[ch.Name] = "ok"
			continue
		}
		var d Degraded
		if errors.As(err, &d) {
			body.Checks[ch.Name] = string(d)
			body.Degraded = append(body.Degraded, ch.Name)
			continue
		}
		var u Unready
		if errors.As(err, &u) {
			body.Checks[ch.Name] = string(u)
		} else {
			body.Checks[ch.Name] = "unavailable"
			r.logger.Warn("readiness check failed", "check", ch.Name, "error", err)
		}
		body.Failed = append(body.Failed, ch.Name)
		if body.Status == "ready" {
			body.Status = "unready"
		}
	}
	if body.Status == "ready" && len(body.Degraded) > 0 {
		body.Status = "degraded"
	}
	return body
}
