package query

import (
	"context"
	"math"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// EndpointHealth asks for one endpoint's health figures.
type EndpointHealth struct {
	WorkspaceID string
	WebhookID   string
}

// HealthWindow is an endpoint's figures over one period: attempts, the share that
// succeeded, latency percentiles (to a bucket's precision: the bound of the bucket the
// percentile falls in) and the latest failed attempt's error.
type HealthWindow struct {
	Attempts    int        `json:"attempts"`
	Succeeded   int        `json:"succeeded"`
	SuccessRate *float64   `json:"successRate"` // percent, one decimal; null without attempts
	LatencyP50  *int64     `json:"latencyP50Ms"`
	LatencyP95  *int64     `json:"latencyP95Ms"`
	LastError   *string    `json:"lastError"`
	LastErrorAt *time.Time `json:"lastErrorAt"`
}

// HealthHour is one hour of the last 24 (the chart's bars).
type HealthHour struct {
	Hour      time.Time `json:"hour"`
	Attempts  int       `json:"attempts"`
	Succeeded int       `json:"succeeded"`
}

// Health is an endpoint's health over the last 24 hours and 7 days (each counted in
// whole hours back from the current one, included), and its last 24 hours hour by hour.
type Health struct {
	WebhookID string       `json:"webhookId"`
	At        time.Time    `json:"at"`
	Last24h   HealthWindow `json:"last24h"`
	Last7d    HealthWindow `json:"last7d"`
	Hours     []HealthHour `json:"hours"`
}

// EndpointHealth reads the endpoint's health rollup (at most 7 × 24 rows a latency
// bucket, on the primary key), never its attempt log.
func (r Reads) EndpointHealth(ctx context.Context, q EndpointHealth) (Health, error) {
	if _, err := r.Subs.Get(ctx, q.WorkspaceID, q.WebhookID); err != nil {
		return Health{}, err
	}
	now := r.Clock.Now()
	since := now.UTC().Truncate(time.Hour).Add(-(webhooks.WeekHours - 1) * time.Hour)
	rows, err := r.Health.Rows(ctx, q.WorkspaceID, q.WebhookID, since)
	if err != nil {
		return Health{}, err
	}
	h := webhooks.SummarizeHealth(rows, now)
	out := Health{WebhookID: q.WebhookID, At: now, Last24h: windowView(h.Day), Last7d: windowView(h.Week),
		Hours: make([]HealthHour, len(h.Hours))}
	for i, c := range h.Hours {
		out.Hours[i] = HealthHour{Hour: c.Hour, Attempts: c.Attempts, Succeeded: c.Succeeded}
	}
	return out, nil
}

func windowView(w webhooks.HealthWindow) HealthWindow {
	v := HealthWindow{Attempts: w.Attempts, Succeeded: w.Succeeded, LastErrorAt: w.LastErrorAt}
	if w.Attempts > 0 {
		rate := math.Round(w.SuccessRate()*10) / 10
		p50, p95 := w.P50.Milliseconds(), w.P95.Milliseconds()
		v.SuccessRate, v.LatencyP50, v.LatencyP95 = &rate, &p50, &p95
	}
	if w.LastErrorAt != nil {
		e := w.LastError
		v.LastError = &e
	}
	return v
}
