package main

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// target is one endpoint under load.
type target struct {
	name   string
	addr   string // host:port on loopback
	path   string
	bearer string
	// onRun, when set, starts something for the measured run of d (a profile) and
	// returns a function that waits for it.
	onRun func(d time.Duration) func() error
}

// result is what one bounded run measured.
type result struct {
	name     string
	requests int
	elapsed  time.Duration
	p50, p99 time.Duration
	allocs   float64 // heap allocations per request in the serving process(es)
}

func (r result) perSecond() float64 { return float64(r.requests) / r.elapsed.Seconds() }

// limits bound every run in time and in requests.
type limits struct {
	conns       int
	warmup, run time.Duration
	maxRequests int64
}

// measure drives tgt with lim.conns keep-alive connections, each sending its next
// request when the previous answer arrived (closed loop): first for the warm-up,
// unrecorded, then for the run. Any answer but 200 aborts the run.
// mallocs reads the serving process's allocations before and after the run.
func measure(tgt target, lim limits, mallocs func() (float64, error)) (result, error) {
	client := &fasthttp.HostClient{Addr: tgt.addr, MaxConns: lim.conns, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
	if _, err := phase(client, tgt, lim.conns, lim.warmup, lim.maxRequests); err != nil {
		return result{}, fmt.Errorf("%s warm-up: %w", tgt.name, err)
	}
	before, err := mallocs()
	if err != nil {
		return result{}, fmt.Errorf("%s allocations: %w", tgt.name, err)
	}
	wait := func() error { return nil }
	if tgt.onRun != nil {
		wait = tgt.onRun(lim.run)
	}
	start := time.Now()
	lat, err := phase(client, tgt, lim.conns, lim.run, lim.maxRequests)
	elapsed := time.Since(start)
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", tgt.name, err)
	}
	if err := wait(); err != nil {
		return result{}, fmt.Errorf("%s: %w", tgt.name, err)
	}
	after, err := mallocs()
	if err != nil {
		return result{}, fmt.Errorf("%s allocations: %w", tgt.name, err)
	}
	slices.Sort(lat)
	return result{name: tgt.name, requests: len(lat), elapsed: elapsed, p50: quantile(lat, 0.50), p99: quantile(lat, 0.99),
		allocs: (after - before) / float64(max(len(lat), 1))}, nil
}

// phase runs conns workers until d has passed or max requests were sent, and returns
// every latency.
func phase(client *fasthttp.HostClient, tgt target, conns int, d time.Duration, max int64) ([]time.Duration, error) {
	deadline := time.Now().Add(d)
	var sent atomic.Int64
	var mu sync.Mutex
	var all []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat, err := worker(client, tgt, deadline, &sent, max)
			mu.Lock()
			defer mu.Unlock()
			all = append(all, lat...)
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}()
	}
	wg.Wait()
	return all, firstErr
}

func worker(client *fasthttp.HostClient, tgt target, deadline time.Time, sent *atomic.Int64, max int64) ([]time.Duration, error) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + tgt.addr + tgt.path)
	if tgt.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+tgt.bearer)
	}
	lat := make([]time.Duration, 0, 1<<14)
	for sent.Add(1) <= max {
		t0 := time.Now()
		if t0.After(deadline) {
			break
		}
		if err := client.Do(req, resp); err != nil {
			return lat, err
		}
		lat = append(lat, time.Since(t0))
		if resp.StatusCode() != fasthttp.StatusOK {
			return lat, fmt.Errorf("status %d: %s", resp.StatusCode(), resp.Body())
		}
	}
	return lat, nil
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(int(q*float64(len(sorted))), len(sorted)-1)]
}
