package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/tests/benchkit"
)

type phase struct {
	name  string
	rate  int // requests/s, open loop; 0 means closed loop with conns connections
	conns int
	cut   bool // cut the last instance off its network for -cut, 3 s in (-network)
}

type latencies struct{ p50, p99, max time.Duration }

func summarize(ds []time.Duration) latencies {
	l := latencies{p50: benchkit.Percentile(ds, 50), p99: benchkit.Percentile(ds, 99)}
	for _, d := range ds {
		l.max = max(l.max, d)
	}
	l.max = l.max.Round(10 * time.Microsecond)
	return l
}

type phaseResult struct {
	phase
	sent, accepted, delivered int
	acceptedPerSec            float64
	deliveredPerSec           float64
	api, receipt              latencies
	backlog                   time.Duration // last arrival after the last accepted request; -1 when some never came
	svcCPUms, pgCPUms         float64       // per delivered event
	brokerCPUms               float64       // per delivered event, the nats-server (JetStream transport)
	cpuShare                  []float64     // each instance's part of the service CPU
	pairs                     []int         // (consumer, partition) pairs each instance holds at the end
	xactsPerEvent             float64       // PostgreSQL transactions per delivered event
	writesPerEvent            float64       // rows inserted, updated or deleted per delivered event
	tableWrites               string        // the same per table
	stages                    stages        // where the send-to-receipt time went (PostgreSQL)
	cut                       *cutResult    // the cut phase's handover, losses and duplicates
	missing                   int           // accepted requests whose webhook never came
	unanswered                int           // webhooks of requests the API did not accept (committed, then the answer failed)
	walPerEvent               float64       // WAL bytes per delivered event (the server's)
	hotShare                  float64       // share of the run's row updates that were HOT
}

// drainLimit bounds the wait for a phase's webhooks after its last request.
const drainLimit = 60 * time.Second

func runPhase(ctx context.Context, svcs fleet, brokers []int, d *driver, rc *receiver, stats *sqlx.DB, ph phase, dur time.Duration) (phaseResult, error) {
	from := d.seq.Load() + 1
	pgc0, err := readPGCounters(ctx, stats)
	if err != nil {
		return phaseResult{}, err
	}
	svc0, err := svcs.cpu()
	if err != nil {
		return phaseResult{}, err
	}
	server := postmasterPID(ctx, stats)
	pg0, br0 := postgresCPU(server), brokerCPU(brokers)
	start := time.Now()
	var results []sendResult
	if ph.rate > 0 {
		results = d.openLoop(ctx, ph.rate, dur)
	} else {
		results = d.closedLoop(ctx, ph.conns, dur)
	}
	to := d.seq.Load() + 1

	r := phaseResult{phase: ph, sent: len(results)}
	var apiLat []time.Duration
	var lastAccepted time.Time
	answered := map[int64]time.Time{}
	want := map[int64]bool{}
	for _, s := range results {
		if !s.ok {
			continue
		}
		r.accepted++
		want[s.seq] = true
		answered[s.seq] = s.finished
		apiLat = append(apiLat, s.latency)
		if s.finished.After(lastAccepted) {
			lastAccepted = s.finished
		}
	}
	r.api = summarize(apiLat)
	printKeyedSplit(ph, results)
	r.acceptedPerSec = float64(r.accepted) / lastAccepted.Sub(start).Seconds()

	complete := waitForSet(rc, from, to, want, drainLimit)
	fmt.Printf("webhookload: phase %s from %s to %s UTC, %d requests\n", ph.name, start.UTC().Format("15:04:05.000"), time.Now().UTC().Format("15:04:05.000"), len(results))
	arrivals := rc.collect(from, to)
	svc1, err := svcs.cpu()
	if err != nil {
		return phaseResult{}, err
	}
	pg1, br1 := postgresCPU(server), brokerCPU(brokers)
	if r.pairs, err = svcs.pairsHeld(ctx, stats); err != nil {
		return phaseResult{}, err
	}
	time.Sleep(1200 * time.Millisecond) // PostgreSQL flushes its counters within a second
	pgc1, err := readPGCounters(ctx, stats)
	if err != nil {
		return phaseResult{}, err
	}

	got := rc.collectBySeq(from, to)
	for seq := range want {
		if _, ok := got[seq]; !ok {
			r.missing++
		}
	}
	for seq := range got {
		if !want[seq] {
			r.unanswered++
		}
	}
	var receipt []time.Duration
	var lastArrival time.Time
	for _, a := range arrivals {
		receipt = append(receipt, a.latency)
		if a.at.After(lastArrival) {
			lastArrival = a.at
		}
	}
	r.delivered = len(arrivals)
	r.receipt = summarize(receipt)
	if r.delivered > 0 {
		r.deliveredPerSec = float64(r.delivered) / lastArrival.Sub(start).Seconds()
		r.svcCPUms = float64((sum(svc1) - sum(svc0)).Microseconds()) / 1000 / float64(r.delivered)
		r.pgCPUms = float64((pg1 - pg0).Microseconds()) / 1000 / float64(r.delivered)
		r.brokerCPUms = float64((br1 - br0).Microseconds()) / 1000 / float64(r.delivered)
	}
	for i := range svc1 {
		r.cpuShare = append(r.cpuShare, float64(svc1[i]-svc0[i])/float64(max(sum(svc1)-sum(svc0), 1)))
	}
	r.xactsPerEvent, r.writesPerEvent, r.tableWrites = pgc1.perEvent(pgc0, r.delivered)
	if r.stages, err = measureStages(ctx, stats, rc.collectBySeq(from, to), answered); err != nil {
		return phaseResult{}, err
	}
	r.walPerEvent, r.hotShare = pgc1.walPerEvent(pgc0, r.delivered)
	switch {
	case !complete:
		r.backlog = -1
	case lastArrival.After(lastAccepted):
		r.backlog = lastArrival.Sub(lastAccepted).Round(time.Millisecond)
	}
	return r, nil
}

// waitForSet waits until every accepted seq has arrived.
func waitForSet(rc *receiver, from, to int64, want map[int64]bool, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if len(rc.collect(from, to)) >= len(want) {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// quietLimit bounds the wait for the consumers to catch up before the idle measurement.
const quietLimit = 120 * time.Second

// waitQuiet waits until the service's CPU over a 1 s window is under 50 ms per instance
// (after saturation the consumers the receiver does not see, such as the analytics
// projection, may still be catching up) and returns how long that took, or quietLimit.
func waitQuiet(svcs fleet) time.Duration {
	start := time.Now()
	for time.Since(start) < quietLimit {
		c0, err := svcs.cpu()
		time.Sleep(time.Second)
		c1, _ := svcs.cpu()
		if err != nil || sum(c1)-sum(c0) < time.Duration(len(svcs))*50*time.Millisecond {
			break
		}
	}
	return time.Since(start).Round(time.Second)
}

// measureIdle returns the service's and PostgreSQL's CPU over dur with no load, scaled to
// 30 s, once the consumers have drained (how long that took is reported too).
func measureIdle(ctx context.Context, svcs fleet, stats *sqlx.DB, dur time.Duration) (idle struct{ svc, pg, backends, drained time.Duration }) {
	idle.drained = waitQuiet(svcs)
	s0, _ := svcs.cpu()
	server := postmasterPID(ctx, stats)
	p0, b0 := postgresCPU(server), backendsCPU(ctx, stats)
	start := time.Now().UTC()
	time.Sleep(dur)
	fmt.Printf("webhookload: idle measured from %s to %s UTC\n", start.Format("15:04:05.000"), time.Now().UTC().Format("15:04:05.000"))
	s1, _ := svcs.cpu()
	p1, b1 := postgresCPU(server), backendsCPU(ctx, stats)
	scale := float64(30*time.Second) / float64(dur)
	idle.svc = time.Duration(float64(sum(s1)-sum(s0)) * scale)
	idle.pg = time.Duration(float64(p1-p0) * scale)
	idle.backends = time.Duration(float64(backendsDelta(b0, b1)) * scale)
	return idle
}

// measureFloor is the baseline: the same driver posting a webhook-sized body straight to
// a loopback receiver at 200/s for 3 s, the least any send-to-receipt figure can be.
func measureFloor(ctx context.Context) (latencies, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return latencies{}, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}}
	body := bytes.Repeat([]byte("x"), 400)
	var (
		mu  sync.Mutex
		ds  []time.Duration
		wg  sync.WaitGroup
		url = "http://" + ln.Addr().String()
	)
	start := time.Now()
	for i := 0; i < 600; i++ {
		intended := start.Add(time.Duration(i) * 5 * time.Millisecond)
		time.Sleep(time.Until(intended))
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
			resp, err := client.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			mu.Lock()
			ds = append(ds, time.Since(intended))
			mu.Unlock()
		}()
	}
	wg.Wait()
	return summarize(ds), nil
}

// printKeyedSplit prints the API latencies of the requests with and without an
// Idempotency-Key when a phase has both (-idempotency alternate): the same service,
// database and moment, so the difference is the key's cost.
func printKeyedSplit(ph phase, results []sendResult) {
	var with, without []time.Duration
	for _, s := range results {
		switch {
		case !s.ok:
		case s.keyed:
			with = append(with, s.latency)
		default:
			without = append(without, s.latency)
		}
	}
	if len(with) == 0 || len(without) == 0 {
		return
	}
	w, wo := summarize(with), summarize(without)
	fmt.Printf("webhookload: phase %s: API with Idempotency-Key p50 %v p99 %v (%d); without p50 %v p99 %v (%d)\n",
		ph.name, w.p50, w.p99, len(with), wo.p50, wo.p99, len(without))
}
