package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// driver sends POST /api/v1/students, each carrying its seq and send time in metadata,
// so the receiver can tell when that request's webhook arrived. Requests go round-robin
// over the instances' addresses and over the workspaces' keys.
type driver struct {
	urls, keys []string
	client     *http.Client
	seq        atomic.Int64
	idem       string // none, all or alternate: which requests carry a fresh Idempotency-Key
}

// keyed tells whether request seq carries an Idempotency-Key (-idempotency).
func (d *driver) keyed(seq int64) bool {
	return d.idem == "all" || (d.idem == "alternate" && seq%2 == 0)
}

func newDriver(publicAddrs, keys []string) *driver {
	tr := &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64, IdleConnTimeout: 30 * time.Second}
	d := &driver{keys: keys, client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	for _, a := range publicAddrs {
		d.urls = append(d.urls, "http://"+a+"/api/v1/students")
	}
	return d
}

type sendResult struct {
	seq      int64
	ok       bool
	keyed    bool          // sent with an Idempotency-Key
	latency  time.Duration // from the intended send time (open loop: no coordinated omission)
	finished time.Time
}

// send makes one request meant to leave at intended.
func (d *driver) send(ctx context.Context, intended time.Time) sendResult {
	seq := d.seq.Add(1)
	body := `{"email":"load` + strconv.FormatInt(seq, 10) + `@example.com","firstName":"Load",` +
		`"metadata":{"seq":"` + strconv.FormatInt(seq, 10) + `","sentAt":"` + strconv.FormatInt(time.Now().UnixNano(), 10) + `"}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, d.urls[seq%int64(len(d.urls))], bytes.NewBufferString(body))
	req.Header.Set("Authorization", "Bearer "+d.keys[seq%int64(len(d.keys))])
	req.Header.Set("Content-Type", "application/json")
	r := sendResult{seq: seq, keyed: d.keyed(seq)}
	if r.keyed {
		req.Header.Set("Idempotency-Key", "load-"+strconv.FormatInt(time.Now().UnixNano(), 36)+"-"+strconv.FormatInt(seq, 10))
	}
	resp, err := d.client.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		r.ok = resp.StatusCode == http.StatusCreated
	}
	r.finished = time.Now()
	r.latency = r.finished.Sub(intended)
	return r
}

// openLoop sends at rate per second for d, whatever the answers' pace.
func (d *driver) openLoop(ctx context.Context, rate int, dur time.Duration) []sendResult {
	var (
		mu  sync.Mutex
		out []sendResult
		wg  sync.WaitGroup
	)
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	for i := 0; ; i++ {
		intended := start.Add(time.Duration(i) * interval)
		if intended.Sub(start) >= dur {
			break
		}
		if w := time.Until(intended); w > 0 {
			time.Sleep(w)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := d.send(ctx, intended)
			mu.Lock()
			out = append(out, r)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// closedLoop keeps conns requests in flight for dur: as fast as the API accepts.
func (d *driver) closedLoop(ctx context.Context, conns int, dur time.Duration) []sendResult {
	var (
		mu  sync.Mutex
		out []sendResult
		wg  sync.WaitGroup
	)
	end := time.Now().Add(dur)
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []sendResult
			for time.Now().Before(end) {
				mine = append(mine, d.send(ctx, time.Now()))
			}
			mu.Lock()
			out = append(out, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func (r sendResult) String() string { return fmt.Sprintf("#%d ok=%v %v", r.seq, r.ok, r.latency) }
