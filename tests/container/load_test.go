package container

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Load sends GET requests from several workers on keep-alive connections until the
// server refuses connections (its listener closed) or Stop. A refused connection never
// carried a request; any other error, or a status other than 200, is a failed request.
type Load struct {
	ok, refused atomic.Int64
	mu          sync.Mutex
	failures    []string
	stop        chan struct{}
	wg          sync.WaitGroup
	signalled   atomic.Bool // refusals before the signal are failures
	signalledAt atomic.Int64
}

// StartLoad runs workers against url with the bearer key.
func StartLoad(url, key string, workers int) *Load {
	l := &Load{stop: make(chan struct{})}
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	for range workers {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for {
				select {
				case <-l.stop:
					return
				default:
				}
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("Authorization", "Bearer "+key)
				var reused bool // said with a failure: a fresh connection or a kept-alive one
				req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
					GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
				}))
				sent := time.Now()
				resp, err := c.Do(req)
				if errors.Is(err, syscall.ECONNREFUSED) {
					l.refused.Add(1)
					if !l.signalled.Load() {
						l.fail("connection refused before the signal")
					}
					return // the listener is closed for good
				}
				if err != nil {
					l.fail(fmt.Sprintf("%v (connection reused: %v; sent %s)", err, reused, l.sinceSignal(sent)))
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					l.fail(fmt.Sprintf("status %d", resp.StatusCode))
					continue
				}
				l.ok.Add(1)
			}
		}()
	}
	return l
}

func (l *Load) fail(why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures = append(l.failures, why)
}

// Stop ends the load and waits for the workers.
func (l *Load) Stop() {
	close(l.stop)
	l.wg.Wait()
}

// sinceSignal says when t was relative to the signal (Signal marks it).
func (l *Load) sinceSignal(t time.Time) string {
	at := l.signalledAt.Load()
	if at == 0 {
		return "before the signal"
	}
	return fmt.Sprintf("%v after the signal", t.Sub(time.Unix(0, at)).Round(time.Millisecond))
}

// Signal notes that the server was signalled now: refusals from here on are expected.
func (l *Load) Signal() {
	l.signalledAt.Store(time.Now().UnixNano())
	l.signalled.Store(true)
}

// Failures returns the failed requests.
func (l *Load) Failures() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.failures...)
}
