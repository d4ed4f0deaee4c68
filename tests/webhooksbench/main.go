// Command webhooksbench measures webhook delivery end to end (outbox, router, fan-out,
// dispatcher, signed POST to a loopback receiver, attempt recorded): sustained
// deliveries/s, and commit-to-receiver latency at a steady 200 events/s, on PostgreSQL
// (CREATORAPI_TEST_POSTGRES_URL) and SQLite. Run by `make bench`.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/creatorapi/creatorapi/tests/benchkit"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/workspaces"
	wscommand "github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

func main() {
	rate := flag.Int("rate", 200, "events per second of the latency run")
	seconds := flag.Int("seconds", 10, "length of the latency run")
	burst := flag.Int("burst", 5000, "events of the throughput run")
	endpoints := flag.Int("endpoints", 2, "endpoints subscribed in the throughput run (deliveries = burst x endpoints)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if err := run(*rate, *seconds, *burst, *endpoints); err != nil {
		fmt.Fprintln(os.Stderr, "webhooksbench:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func run(rate, seconds, burst, endpoints int) error {
	dir, err := os.MkdirTemp("", "webhooksbench")
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
		fmt.Println("webhooks: PostgreSQL skipped (set CREATORAPI_TEST_POSTGRES_URL)")
	}
	for _, tg := range targets {
		if err := benchOne(tg.name, tg.url, dir, rate, seconds, burst, endpoints); err != nil {
			return fmt.Errorf("%s: %w", tg.name, err)
		}
	}
	return nil
}

// receiver is a loopback endpoint noting when each event first arrived.
type receiver struct {
	mu       sync.Mutex
	first    map[string]time.Time
	requests atomic.Int64
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	now := time.Now()
	var env struct{ ID string }
	_ = json.Unmarshal(body, &env)
	r.mu.Lock()
	if _, ok := r.first[env.ID]; !ok {
		r.first[env.ID] = now
	}
	r.mu.Unlock()
	r.requests.Add(1)
	w.WriteHeader(http.StatusNoContent)
}

func benchOne(name, dbURL, dir string, rate, seconds, burst, endpoints int) error {
	cfg, err := compose.LoadConfig(func(string) string { return "" })
	if err != nil {
		return err
	}
	cfg.DataDir, cfg.DatabaseURL, cfg.LogLevel = filepath.Join(dir, name), dbURL, "error"
	cfg.SecretKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	cfg.WebhookAllowPrivate = true // the receiver listens on loopback

	rc := &receiver{first: map[string]time.Time{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: rc}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	target := "http://" + ln.Addr().String()

	var db *sqldb.DB
	var tx platform.Transactor
	var pub platform.Publisher
	var hooks webhooks.Application
	var ws workspaces.Application
	var disp *adapterwebhooks.Dispatcher
	// The bench runs the dispatcher loop itself, so that it can pause it.
	app := fx.New(compose.Modules(cfg), compose.Workers(), fx.Populate(&db, &tx, &pub, &hooks, &ws, &disp),
		fx.Replace(compose.WebhookDispatching{Background: false, Limits: adapterwebhooks.DefaultLimits}))
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		return err
	}
	defer app.Stop(ctx)
	var stop chan struct{}
	var done chan struct{}
	startLoop := func() {
		stop, done = make(chan struct{}), make(chan struct{})
		go func() { defer close(done); disp.Run(stop) }()
	}
	stopLoop := func() { close(stop); <-done }
	startLoop()

	newWorkspace := func(endpoints int) (string, error) {
		w, err := ws.Commands.CreateWorkspace.Handle(ctx, wscommand.CreateWorkspace{Name: "Bench", OwnerEmail: "bench@example.com"})
		if err != nil {
			return "", err
		}
		for i := 0; i < endpoints; i++ {
			if _, err := hooks.Commands.CreateWebhook.Handle(ctx, command.CreateWebhook{
				WorkspaceID: w.ID, URL: fmt.Sprintf("%s/hook/%d", target, i), Events: []string{"student.created"},
			}); err != nil {
				return "", err
			}
		}
		return w.ID, nil
	}
	commits := map[string]time.Time{}
	var cmu sync.Mutex
	// publish commits one event; timed, it notes the commit time under the event's id.
	publish := func(workspaceID string, timed bool) error {
		var id string
		return tx.WithinTx(ctx, func(ctx context.Context) error {
			if timed {
				sqldb.AfterCommit(ctx, func() {
					cmu.Lock()
					commits[id] = time.Now()
					cmu.Unlock()
				})
			}
			if err := pub.Publish(ctx, events.New(events.StudentCreated, workspaceID, map[string]string{"email": "s@example.com"})); err != nil {
				return err
			}
			if timed {
				id = lastEventID(ctx, db)
			}
			return nil
		})
	}

	// Latency at a steady rate: one event per transaction, one endpoint.
	steady, err := newWorkspace(1)
	if err != nil {
		return err
	}
	n := rate * seconds
	tick := time.NewTicker(time.Second / time.Duration(rate))
	for range n {
		<-tick.C
		if err := publish(steady, true); err != nil {
			return err
		}
	}
	tick.Stop()
	if err := waitRequests(rc, int64(n)); err != nil {
		return err
	}
	var lat []time.Duration
	rc.mu.Lock()
	cmu.Lock()
	for id, at := range commits {
		if got, ok := rc.first[id]; ok {
			lat = append(lat, got.Sub(at))
		}
	}
	cmu.Unlock()
	rc.mu.Unlock()
	fmt.Printf("webhooks %-8s latency at %d events/s for %d s: commit-to-receiver p50 %s, p99 %s, max %s (%d events)\n",
		name, rate, seconds, benchkit.Percentile(lat, 50), benchkit.Percentile(lat, 99), benchkit.Percentile(lat, 100), len(lat))

	// Throughput: burst events published by 8 writers, each fanned out to the endpoints.
	// First end to end; then the dispatcher alone, on deliveries written while it was paused.
	// A service's tables have planner statistics (autovacuum); a fresh schema has none until
	// autovacuum's first pass, and the claim's plan then sorts every due row.
	analyze := func() error {
		if db.Dialect != sqldb.Postgres || os.Getenv("WEBHOOKSBENCH_NO_ANALYZE") != "" {
			return nil
		}
		_, err := db.Writer.ExecContext(ctx, "ANALYZE")
		return err
	}
	if err := analyze(); err != nil {
		return err
	}
	loaded, err := newWorkspace(endpoints)
	if err != nil {
		return err
	}
	if err := throughput(name, "end to end", loaded, burst, endpoints, rc, db, publish, nil); err != nil {
		return err
	}
	stopLoop()
	if err := analyze(); err != nil {
		return err
	}
	loaded, err = newWorkspace(endpoints)
	if err != nil {
		return err
	}
	err = throughput(name, "dispatcher alone", loaded, burst, endpoints, rc, db, publish, startLoop)
	stopLoop()
	return err
}

// throughput publishes burst events to workspace and measures until the receiver got
// them all; with resume, the clock starts when resume restarts the paused dispatcher.
func throughput(name, label, loaded string, burst, endpoints int, rc *receiver, db *sqldb.DB, publish func(string, bool) error, resume func()) error {
	before := rc.requests.Load()
	start := time.Now()
	var wg sync.WaitGroup
	var perr atomic.Value
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < burst; i += 8 {
				if err := publish(loaded, false); err != nil {
					perr.Store(err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	if err, ok := perr.Load().(error); ok {
		return err
	}
	published := time.Since(start)
	for {
		var written int
		if err := db.Reader.Get(&written, db.Reader.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE workspace_id = ?`), loaded); err != nil {
			return err
		}
		if written >= burst*endpoints || time.Since(start) > 3*time.Minute {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	fannedOut := time.Since(start)
	if resume != nil {
		start = time.Now()
		resume()
	}
	want := before + int64(burst*endpoints)
	if err := waitRequests(rc, want); err != nil {
		return err
	}
	for {
		var pending int
		if err := db.Reader.Get(&pending, db.Reader.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE workspace_id = ? AND status <> 'succeeded'`), loaded); err != nil {
			return err
		}
		if pending == 0 || time.Since(start) > 3*time.Minute {
			break
		}
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	fmt.Printf("webhooks %-8s throughput, %s: %d deliveries (%d events x %d endpoints) sent and recorded in %s: %.0f deliveries/s (published in %s, fanned out in %s)\n",
		name, label, burst*endpoints, burst, endpoints, elapsed.Round(time.Millisecond), float64(burst*endpoints)/elapsed.Seconds(),
		published.Round(time.Millisecond), fannedOut.Round(time.Millisecond))
	return nil
}

func waitRequests(rc *receiver, n int64) error {
	deadline := time.Now().Add(3 * time.Minute)
	for rc.requests.Load() < n {
		if time.Now().After(deadline) {
			return fmt.Errorf("receiver got %d of %d requests", rc.requests.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// lastEventID reads the id the outbox just stamped in this transaction.
func lastEventID(ctx context.Context, db *sqldb.DB) string {
	var payload []byte
	_ = db.Write(ctx).GetContext(ctx, &payload, `SELECT payload FROM watermill_events ORDER BY "offset" DESC LIMIT 1`)
	var env struct{ ID string }
	_ = json.Unmarshal(payload, &env)
	return env.ID
}
