// Command eventsbench measures the event stream: events/s through the outbox and a
// projection-like consumer, and commit-to-handler latency at a steady 200 events/s, on
// PostgreSQL (CREATORAPI_TEST_POSTGRES_URL) and SQLite. Run by `make bench`.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/creatorapi/creatorapi/tests/benchkit"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

func main() {
	rate := flag.Int("rate", 200, "events per second of the latency run")
	seconds := flag.Int("seconds", 10, "length of the latency run")
	burst := flag.Int("burst", 5000, "events of the throughput run")
	flag.Parse()
	if err := run(*rate, *seconds, *burst); err != nil {
		fmt.Fprintln(os.Stderr, "eventsbench:", err)
		os.Exit(1)
	}
}

func run(rate, seconds, burst int) error {
	dir, err := os.MkdirTemp("", "eventsbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	targets := []struct{ name, url string }{{"sqlite", "sqlite://" + filepath.Join(dir, "bench.db")}}
	if base := os.Getenv("CREATORAPI_TEST_POSTGRES_URL"); base != "" {
		u, drop, err := benchkit.FreshSchema(base)
		if err != nil {
			return err
		}
		defer drop()
		targets = append([]struct{ name, url string }{{"postgres", u}}, targets...)
	} else {
		fmt.Println("events: PostgreSQL skipped (set CREATORAPI_TEST_POSTGRES_URL)")
	}
	for _, tg := range targets {
		if err := benchOne(tg.name, tg.url, dir, rate, seconds, burst); err != nil {
			return fmt.Errorf("%s: %w", tg.name, err)
		}
	}
	return nil
}

// probe is a projection-like consumer: one upsert per event through the subscriber's
// transaction, and the time it saw each event.
type probe struct {
	db       *sqldb.DB
	mu       sync.Mutex
	seenAt   map[string]time.Time
	commitAt map[string]time.Time
	handled  atomic.Int64
}

func (p *probe) consumer() events.Consumer {
	return events.Consumer{Name: "bench_projection", Handle: func(ctx context.Context, ev events.Envelope) error {
		now := time.Now()
		var d struct{ Label string }
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return err
		}
		q := p.db.Write(ctx)
		if _, err := q.ExecContext(ctx, p.db.Rebind(`INSERT INTO bench_counts (k, n) VALUES (?, 1) ON CONFLICT (k) DO UPDATE SET n = bench_counts.n + 1`), ev.WorkspaceID); err != nil {
			return err
		}
		p.mu.Lock()
		p.seenAt[d.Label] = now
		p.mu.Unlock()
		p.handled.Add(1)
		return nil
	}}
}

func benchOne(name, dbURL, dir string, rate, seconds, burst int) error {
	cfg, err := compose.LoadConfig(func(string) string { return "" })
	if err != nil {
		return err
	}
	cfg.DataDir, cfg.DatabaseURL, cfg.LogLevel = filepath.Join(dir, name), dbURL, "error"
	cfg.SecretKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	p := &probe{seenAt: map[string]time.Time{}, commitAt: map[string]time.Time{}}
	var tx platform.Transactor
	var pub platform.Publisher
	app := fx.New(compose.Modules(cfg), compose.Workers(), fx.Populate(&p.db, &tx, &pub),
		fx.Provide(fx.Annotate(p.consumer, fx.ResultTags(`group:"event_consumers"`))),
		fx.Provide(fx.Annotate(func() events.Consumer {
			return events.Consumer{Name: "bench_noop", Handle: func(context.Context, events.Envelope) error { return nil }}
		}, fx.ResultTags(`group:"event_consumers"`))))
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		return err
	}
	defer app.Stop(ctx)
	if _, err := p.db.Writer.Exec(`CREATE TABLE bench_counts (k TEXT PRIMARY KEY, n BIGINT NOT NULL)`); err != nil {
		return err
	}
	publish := func(label string) (time.Duration, error) {
		start := time.Now()
		err := tx.WithinTx(ctx, func(ctx context.Context) error {
			sqldb.AfterCommit(ctx, func() { // registered first: runs at commit, before the wakeup
				p.mu.Lock()
				p.commitAt[label] = time.Now()
				p.mu.Unlock()
			})
			return pub.Publish(ctx, events.New(events.OrderPaid, "org_bench", map[string]string{"label": label}))
		})
		return time.Since(start), err
	}
	waitHandled := func(n int64) error {
		deadline := time.Now().Add(2 * time.Minute)
		for p.handled.Load() < n {
			if time.Now().After(deadline) {
				return fmt.Errorf("consumer handled %d of %d events", p.handled.Load(), n)
			}
			time.Sleep(time.Millisecond)
		}
		return nil
	}

	// Steady rate: one event per transaction every 1/rate s.
	n := rate * seconds
	var writes []time.Duration
	tick := time.NewTicker(time.Second / time.Duration(rate))
	for i := range n {
		<-tick.C
		d, err := publish(fmt.Sprintf("steady-%d", i))
		if err != nil {
			return err
		}
		writes = append(writes, d)
	}
	tick.Stop()
	if err := waitHandled(int64(n)); err != nil {
		return err
	}
	var lat []time.Duration
	p.mu.Lock()
	for label, c := range p.commitAt {
		lat = append(lat, max(0, p.seenAt[label].Sub(c)))
	}
	p.mu.Unlock()
	fmt.Printf("events %-8s commit-to-handler at %d events/s (%d events, 2 consumers): p50 %v  p99 %v  max %v\n",
		name, rate, len(lat), benchkit.Percentile(lat, 50), benchkit.Percentile(lat, 99), benchkit.Percentile(lat, 100))
	fmt.Printf("events %-8s write transaction (insert + outbox) while consumers run: p50 %v  p99 %v\n", name, benchkit.Percentile(writes, 50), benchkit.Percentile(writes, 99))

	// Throughput: 8 writers, one event per transaction, as fast as they go.
	before := p.handled.Load()
	start := time.Now()
	var wg sync.WaitGroup
	var next atomic.Int64
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(burst); i = next.Add(1) {
				if _, err := publish(fmt.Sprintf("burst-%d", i)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	published := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	if err := waitHandled(before + int64(burst)); err != nil {
		return err
	}
	consumed := time.Since(start)
	fmt.Printf("events %-8s throughput: outbox %.0f events/s (8 writers), through the projection %.0f events/s\n",
		name, float64(burst)/published.Seconds(), float64(burst)/consumed.Seconds())
	return nil
}
