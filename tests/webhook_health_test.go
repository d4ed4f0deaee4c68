package tests

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// healthJSON is GET .../webhooks/{id}/health.
type healthJSON struct {
	WebhookID string         `json:"webhookId"`
	Last24h   healthWindowJS `json:"last24h"`
	Last7d    healthWindowJS `json:"last7d"`
	Hours     []struct {
		Hour      time.Time `json:"hour"`
		Attempts  int       `json:"attempts"`
		Succeeded int       `json:"succeeded"`
	} `json:"hours"`
}

type healthWindowJS struct {
	Attempts    int        `json:"attempts"`
	Succeeded   int        `json:"succeeded"`
	SuccessRate *float64   `json:"successRate"`
	LatencyP50  *int64     `json:"latencyP50Ms"`
	LatencyP95  *int64     `json:"latencyP95Ms"`
	LastError   *string    `json:"lastError"`
	LastErrorAt *time.Time `json:"lastErrorAt"`
}

// expectedHealth computes a window's figures from the attempt log the operator API shows:
// the count, the share that succeeded, the nearest-rank p50 and p95 reported as the bound
// of their latency bucket, and the latest failure.
func expectedHealth(lines []attemptLine) healthWindowJS {
	var w healthWindowJS
	if len(lines) == 0 {
		return w
	}
	var ms []int64
	for _, l := range lines {
		w.Attempts++
		ms = append(ms, l.LatencyMs)
		if l.Outcome == "succeeded" {
			w.Succeeded++
			continue
		}
		if w.LastErrorAt == nil || !l.At.Before(*w.LastErrorAt) {
			at, e := l.At, l.Describe
			w.LastErrorAt, w.LastError = &at, &e
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i] < ms[j] })
	pct := func(q int) *int64 {
		rank := (len(ms)*q + 99) / 100
		v := webhooks.BucketBound(webhooks.BucketOf(time.Duration(ms[rank-1]) * time.Millisecond)).Milliseconds()
		return &v
	}
	rate := math.Round(float64(w.Succeeded)*100/float64(w.Attempts)*10) / 10
	w.SuccessRate, w.LatencyP50, w.LatencyP95 = &rate, pct(50), pct(95)
	return w
}

type attemptLine struct {
	At        time.Time
	LatencyMs int64
	Outcome   string
	Describe  string
}

func attemptLines(t *testing.T, env *testenv.Env, ws, whk string, from time.Time) []attemptLine {
	t.Helper()
	var out []attemptLine
	for _, d := range env.WebhookDeliveries(t, ws, whk) {
		for _, a := range d.AttemptLog {
			if a.At.Before(from) {
				continue
			}
			l := attemptLine{At: a.At, LatencyMs: a.LatencyMs, Outcome: a.Outcome}
			switch {
			case a.Error != nil && *a.Error != "":
				l.Describe = *a.Error
			case a.StatusCode != nil:
				l.Describe = fmt.Sprintf("HTTP %d", *a.StatusCode)
			}
			out = append(out, l)
		}
	}
	return out
}

// The health figures of an endpoint match the attempts made to a real receiver: count,
// success rate, p50/p95 to a bucket's precision, last error, in each window; the 24-hour
// window drops what is older, the 7-day one keeps it; another endpoint's attempts and
// another workspace never count.
func TestWebhookHealthMatchesTheAttemptsMade(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Health Academy")
		rc := testenv.NewReceiver(t)
		// Latencies spread over several buckets; every fourth request fails (retried).
		rc.SetReply(func(n int, _ *http.Request) testenv.Reply {
			status := http.StatusOK
			if n%4 == 0 {
				status = http.StatusBadGateway
			}
			return testenv.Reply{Status: status, Body: "x", Delay: time.Duration(n%5) * 35 * time.Millisecond}
		})
		whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
		other := testenv.NewReceiver(t)
		other.Always(http.StatusInternalServerError)
		env.CreateWebhook(t, ws, other.URL, "course.published")

		health := func() healthJSON {
			var h healthJSON
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/health", ws, whk)).Expect(t, http.StatusOK).Decode(t, &h)
			return h
		}
		empty := health()
		if empty.Last24h.Attempts != 0 || empty.Last24h.SuccessRate != nil || empty.Last7d.LatencyP50 != nil || len(empty.Hours) != 24 {
			t.Fatalf("a new endpoint's health: %+v", empty)
		}

		// Day 0: six events, and their retries a minute later.
		for i := range 6 {
			env.CreatePublishedCourse(t, ws, fmt.Sprintf("Day zero %d", i))
		}
		env.WaitDeliveries(t, 12)
		env.RunDue(t)
		env.Clock.Advance(time.Minute)
		env.RunDue(t)
		day0 := attemptLines(t, env.Env, ws, whk, time.Time{})
		if len(day0) < 7 {
			t.Fatalf("%d attempts on day 0, want at least 7 (6 and a retry)", len(day0))
		}
		h := health()
		want := expectedHealth(day0)
		if diff := cmp.Diff(want, h.Last24h); diff != "" {
			t.Fatalf("last 24 hours on day 0 (-attempt log +health):\n%s", diff)
		}
		if diff := cmp.Diff(want, h.Last7d); diff != "" {
			t.Fatalf("last 7 days on day 0 (-attempt log +health):\n%s", diff)
		}
		last := h.Hours[len(h.Hours)-1]
		if last.Attempts != want.Attempts || last.Succeeded != want.Succeeded || !last.Hour.Equal(env.Clock.Now().Truncate(time.Hour)) {
			t.Fatalf("current hour %+v, want %d attempts, %d succeeded", last, want.Attempts, want.Succeeded)
		}

		// Two days later: three more events; the last 24 hours hold only them.
		env.Clock.Advance(48 * time.Hour)
		from := env.Clock.Now()
		for i := range 3 {
			env.CreatePublishedCourse(t, ws, fmt.Sprintf("Day two %d", i))
		}
		env.WaitDeliveries(t, 18)
		env.RunDue(t)
		env.Clock.Advance(time.Minute)
		env.RunDue(t)
		recent := attemptLines(t, env.Env, ws, whk, from)
		all := attemptLines(t, env.Env, ws, whk, time.Time{})
		h = health()
		if diff := cmp.Diff(expectedHealth(recent), h.Last24h); diff != "" {
			t.Fatalf("last 24 hours on day 2 (-attempt log +health):\n%s", diff)
		}
		if diff := cmp.Diff(expectedHealth(all), h.Last7d); diff != "" {
			t.Fatalf("last 7 days on day 2 (-attempt log +health):\n%s", diff)
		}

		// Eight days later, nothing is left in either window.
		env.Clock.Advance(8 * 24 * time.Hour)
		if h := health(); h.Last7d.Attempts != 0 || h.Last24h.Attempts != 0 {
			t.Fatalf("after 8 quiet days: %+v", h)
		}
		// Another workspace cannot read it.
		ws2 := env.CreateWorkspace(t, "Other Academy")
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/health", ws2, whk)).Expect(t, http.StatusNotFound)
	})
}
