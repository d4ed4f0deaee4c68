package web

import (
	"context"
	"log/slog"
	"time"
)

// DrainNotice runs first on stop: /readyz answers 503 at once, and the listeners keep
// serving for Delay so that a load balancer sees it and stops sending before they close.
type DrainNotice struct {
	Ready  *Readiness
	Delay  time.Duration
	Logger *slog.Logger
}

// Start does nothing: the notice is only given on stop.
func (DrainNotice) Start(context.Context) error { return nil }

// Stop turns readiness to draining and waits Delay (or until ctx ends).
func (d DrainNotice) Stop(ctx context.Context) error {
	d.Ready.Drain()
	d.Logger.Info("draining", "delay", d.Delay.String())
	if d.Delay <= 0 {
		return nil
	}
	t := time.NewTimer(d.Delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return nil
}
