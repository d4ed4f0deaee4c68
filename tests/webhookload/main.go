// Command webhookload measures the webhook path the way users take it: the built binary
// serving over HTTP, an open-loop driver sending POST /api/v1/students (each request
// carrying its send time), and a receiver that verifies every signature and dedupes on
// the event id. Phases of 50, 200 and 500 requests/s, then saturation (32 connections);
// for each: API p50/p99, send-to-receipt p50/p99/max, deliveries/s, the backlog after the
// last accepted request, CPU per delivered event of the service and of PostgreSQL (from
// /proc), and the service's peak RSS. On PostgreSQL it runs on a fresh database (no
// statistics) and on an aged one (a million events with their deliveries and attempts,
// analysed); on SQLite on a fresh one. Run by `make bench`; the machine should be quiet.
// With -instances and -transport it compares 1..N `serve` processes on one database over
// the SQL and NATS JetStream transports, requests spread over 8 workspaces (partitions).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/tests/benchkit"
	"github.com/jmoiron/sqlx"
)

type config struct {
	phase     time.Duration
	idle      time.Duration
	agedRows  int
	states    []string
	sqlite    bool
	pgBaseURL string
	profiles  string // folder for CPU profiles of each phase, or ""
	phases    []phase
	logSQL    bool
	keep      bool // keep the PostgreSQL databases after the run, for EXPLAIN and the like
	bin       string

	instances   []int    // instance counts to run, each on a fresh database
	transports  []string // sql, nats
	natsURL     string
	natsCluster bool           // -transport nats on a three-node JetStream cluster of the run's own
	workspaces  int            // the driver's workspaces; events are partitioned by workspace
	idempotency string         // none, all, alternate: requests with a fresh Idempotency-Key
	endpoint    map[string]any // extra fields of each endpoint's create body (pacing: rateLimit, ordered)
	network     bool           // instances reach PostgreSQL and NATS through Toxiproxy
	latency     time.Duration  // the network's latency each way
	cut         time.Duration  // the cut phase's partition of one instance
	silentCut   bool           // the cut holds the instance's connections open and passes nothing
}

// scaling tells whether the run compares instance counts or transports (the summary
// table, several workspaces), rather than `make bench`'s single instance.
func (c config) scaling() bool {
	return len(c.instances) > 1 || c.instances[0] != 1 || len(c.transports) > 1 || c.transports[0] != "sql"
}

func main() {
	var cfg config
	states := flag.String("states", "fresh,aged", "PostgreSQL database states to run: fresh, aged, aged-unanalysed")
	flag.DurationVar(&cfg.phase, "phase", 15*time.Second, "length of each load phase")
	flag.DurationVar(&cfg.idle, "idle", 15*time.Second, "length of the idle measurement")
	flag.IntVar(&cfg.agedRows, "aged-rows", 1_000_000, "events (and deliveries, attempts, students) in the aged database")
	flag.BoolVar(&cfg.sqlite, "sqlite", true, "also run on a fresh SQLite database")
	flag.StringVar(&cfg.profiles, "profiles", "", "write a CPU profile of the service per phase into this folder (go tool pprof)")
	flag.StringVar(&cfg.bin, "bin", "", "run this creatorapi binary instead of building ./cmd/creatorapi (to compare two builds)")
	flag.BoolVar(&cfg.keep, "keep-databases", false, "keep each run's PostgreSQL database (its name is printed) instead of dropping it")
	flag.BoolVar(&cfg.logSQL, "log-statements", false, "log every statement of the run's PostgreSQL database, with its duration, to the server log")
	phases := flag.String("phases", "50,200,500,saturation", "load phases: requests/s, or saturation (32 connections)")
	instances := flag.String("instances", "1", "instance counts to measure, each a run of its own: N `serve` processes on one PostgreSQL database, requests round-robin over them")
	transports := flag.String("transport", "sql", "event transports to measure: sql, nats")
	natsURL := os.Getenv("CREATORAPI_TEST_NATS_URL")
	if natsURL == "" {
		natsURL = "nats://127.0.0.1:4222"
	}
	flag.BoolVar(&cfg.natsCluster, "nats-cluster", false, "run -transport nats on a three-node JetStream cluster started by this program on loopback ports, the stream and consumers replicated on all three (CREATORAPI_EVENTS_REPLICAS=3); with -network each instance reaches each node through a proxy of its own")
	flag.StringVar(&cfg.natsURL, "nats", natsURL, "NATS JetStream server of -transport nats (each run uses a stream of its own, deleted afterwards)")
	flag.IntVar(&cfg.workspaces, "workspaces", 0, "workspaces the requests are spread over (events are partitioned by workspace); 0: 1 for a single SQL instance, 8 when scaling")
	flag.StringVar(&cfg.idempotency, "idempotency", "none", "which requests carry a fresh Idempotency-Key: none, all, or alternate (every other; each phase then prints both halves' API latencies)")
	endpoint := flag.String("endpoint", "", `extra JSON fields of each webhook endpoint, e.g. '{"rateLimit":1000}' (docs/webhook-receivers.md, "Rate limit, order, backlog")`)
	flag.BoolVar(&cfg.network, "network", false, "instances reach PostgreSQL and the NATS nodes through Toxiproxy proxies (started in this process), -latency each way")
	flag.DurationVar(&cfg.latency, "latency", time.Millisecond, "with -network: the latency added each way")
	flag.DurationVar(&cfg.cut, "cut", 10*time.Second, "the cut phase (-phases ...,cut, needs -network): how long the last instance is cut off from PostgreSQL and NATS, 3 s into a 200/s phase")
	cutMode := flag.String("cut-mode", "closed", "how the cut phase cuts: closed (the instance's proxies stop: connections closed, new ones refused) or silent (its connections stay open and pass nothing, new ones are accepted and hang: only timeouts tell; the heal closes them)")
	flag.Parse()
	switch *cutMode {
	case "closed":
	case "silent":
		cfg.silentCut = true
	default:
		fmt.Fprintf(os.Stderr, "webhookload: -cut-mode: %q is neither closed nor silent\n", *cutMode)
		os.Exit(2)
	}
	if *endpoint != "" {
		if err := json.Unmarshal([]byte(*endpoint), &cfg.endpoint); err != nil {
			fmt.Fprintln(os.Stderr, "-endpoint:", err)
			os.Exit(2)
		}
	}
	cfg.states = strings.Split(*states, ",")
	cfg.transports = strings.Split(*transports, ",")
	for _, n := range strings.Split(*instances, ",") {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "webhookload: -instances: %q is not a count\n", n)
			os.Exit(2)
		}
		cfg.instances = append(cfg.instances, v)
	}
	if cfg.workspaces == 0 {
		cfg.workspaces = 1
		if cfg.scaling() {
			cfg.workspaces = 8
		}
	}
	for _, p := range strings.Split(*phases, ",") {
		if p == "saturation" {
			cfg.phases = append(cfg.phases, phase{name: p, conns: 32})
		} else if p == "cut" {
			cfg.phases = append(cfg.phases, phase{name: "cut@200/s", rate: 200, cut: true})
		} else if rate, err := strconv.Atoi(p); err == nil && rate > 0 {
			cfg.phases = append(cfg.phases, phase{name: p + "/s", rate: rate})
		} else {
			fmt.Fprintf(os.Stderr, "webhookload: -phases: %q is neither a rate nor saturation\n", p)
			os.Exit(2)
		}
	}
	for _, ph := range cfg.phases {
		if ph.cut && !cfg.network {
			fmt.Fprintln(os.Stderr, "webhookload: the cut phase needs -network")
			os.Exit(2)
		}
	}
	cfg.pgBaseURL = os.Getenv("CREATORAPI_TEST_POSTGRES_URL")
	if err := run(context.Background(), cfg); err != nil {
		fmt.Fprintln(os.Stderr, "webhookload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config) error {
	dir, err := os.MkdirTemp("", "webhookload")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := cfg.bin
	if bin == "" {
		if bin, err = benchkit.BuildBinary(dir); err != nil {
			return err
		}
	}
	floor, err := measureFloor(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("webhookload: baseline (driver -> receiver directly, 200/s): p50 %v, p99 %v\n", floor.p50, floor.p99)
	if cfg.pgBaseURL == "" {
		fmt.Println("webhookload: PostgreSQL SKIPPED (set CREATORAPI_TEST_POSTGRES_URL)")
	}
	var reports []report
	for _, state := range cfg.states {
		if cfg.pgBaseURL == "" {
			break
		}
		for _, tr := range cfg.transports {
			for _, n := range cfg.instances {
				rn := runOf{state: state, transport: tr, instances: n}
				rep, err := runPostgres(ctx, cfg, bin, filepath.Join(dir, fmt.Sprintf("pg-%s-%s-%d", state, tr, n)), rn, floor)
				if err != nil {
					return fmt.Errorf("postgres %s: %w", rn.label(cfg, "postgres"), err)
				}
				reports = append(reports, rep)
			}
		}
	}
	if cfg.sqlite {
		dbURL := "sqlite://" + filepath.Join(dir, "sqlite", "load.db")
		rn := runOf{state: "fresh", transport: "sql", instances: 1}
		if _, err := runState(ctx, cfg, bin, filepath.Join(dir, "sqlite"), dbURL, "sqlite", rn, transportSetup{}, floor); err != nil {
			return fmt.Errorf("sqlite: %w", err)
		}
	}
	if cfg.scaling() {
		printScaling(os.Stdout, reports)
	}
	return nil
}

// runOf is one run: a database state, a transport and a number of instances.
type runOf struct {
	state, transport string
	instances        int
}

func (r runOf) label(cfg config, engine string) string {
	if !cfg.scaling() {
		return engine + " " + r.state
	}
	l := fmt.Sprintf("%s %s, %s transport, %d instance(s), %d workspace(s)", engine, r.state, r.transport, r.instances, cfg.workspaces)
	if r.transport == "nats" && cfg.natsCluster {
		l += fmt.Sprintf(", on a %d-node JetStream cluster (%d replicas)", clusterNodes, clusterNodes)
	}
	if cfg.network {
		l += fmt.Sprintf(", through Toxiproxy (+%v each way)", cfg.latency)
	}
	if cfg.silentCut {
		l += ", silent cut"
	}
	return l
}

// runPostgres runs on a database of its own, with the transport's stream of its own.
func runPostgres(ctx context.Context, cfg config, bin, dataDir string, rn runOf, floor latencies) (report, error) {
	dbURL, drop, err := freshDatabase(ctx, cfg.pgBaseURL, cfg.logSQL, cfg.keep)
	if err != nil {
		return report{}, err
	}
	defer drop()
	tr, err := transportEnv(rn.transport, cfg, filepath.Join(dataDir, "nats"))
	if err != nil {
		return report{}, err
	}
	defer tr.cleanup()
	return runState(ctx, cfg, bin, dataDir, dbURL, "postgres", rn, tr, floor)
}

// runState starts the instances on one database, makes it aged when asked, and runs the phases.
func runState(ctx context.Context, cfg config, bin, dataDir, dbURL, engine string, rn runOf, tr transportSetup, floor latencies) (report, error) {
	state := rn.state
	rc := newReceiver()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return report{}, err
	}
	srv := &http.Server{Handler: rc}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	var net *network
	if cfg.network {
		net = newNetwork(cfg.latency, cfg.silentCut)
		defer net.close()
	}
	svcs, err := newFleet(rn.instances, bin, dataDir, dbURL, tr.env, net)
	if err != nil {
		return report{}, err
	}
	if err := svcs.start(); err != nil {
		return report{}, err
	}
	defer svcs.stop()
	svc := svcs[0]
	var stats *sqlx.DB // PostgreSQL's counters, read through a connection of our own
	if engine == "postgres" {
		if stats, err = sqlx.Open("pgx", dbURL); err != nil {
			return report{}, err
		}
		defer stats.Close()
		stats.SetMaxOpenConns(1)
	}
	parts, err := partitions(ctx, stats)
	if err != nil {
		return report{}, err
	}
	sp := newSpread(parts, cfg.workspaces)
	wss, err := svc.setup(ctx, "http://"+ln.Addr().String()+"/hook", cfg.workspaces, sp.accept, cfg.endpoint)
	if err != nil {
		return report{}, err
	}
	rc.secrets = map[string]string{}
	var keys []string
	for i, ws := range wss {
		rc.secrets[fmt.Sprintf("/hook/%d", i)] = ws.signingSecret
		keys = append(keys, ws.key)
	}
	d := newDriver(svcs.addrs(), keys)
	d.idem = cfg.idempotency
	label := rn.label(cfg, engine)
	if state == "aged" || state == "aged-unanalysed" {
		// One real event leaves the template rows the loader copies.
		first := d.send(ctx, time.Now())
		if !first.ok || !waitFor(rc, first.seq, first.seq+1, 30*time.Second) {
			return report{}, fmt.Errorf("the template event was not delivered")
		}
		svcs.stop()
		took, err := ageDatabase(ctx, dbURL, cfg.agedRows, state == "aged")
		if err != nil {
			return report{}, err
		}
		fmt.Printf("webhookload: %s: loaded %d events with deliveries and attempts in %v\n", label, cfg.agedRows, took.Round(time.Second))
		if err := svcs.start(); err != nil {
			return report{}, err
		}
	}
	rep := report{label: label, floor: floor, run: rn}
	balanced, err := svcs.waitBalanced(ctx, stats)
	if err != nil {
		return report{}, err
	}
	if cfg.scaling() {
		fmt.Printf("webhookload: %s: %v; leases balanced over the instances after %v\n", label, sp, balanced)
	}
	for _, ph := range cfg.phases {
		if ph.cut && len(svcs) < 2 {
			fmt.Printf("webhookload: %s: no cut phase with one instance (nobody to take its pairs over)\n", label)
			continue
		}
		stopProfile := startProfile(ctx, svc, cfg, label, ph.name)
		res, err := runPhaseOrCut(ctx, cfg, net, svcs, tr.brokers, d, rc, stats, ph)
		stopProfile()
		if err != nil {
			return report{}, err
		}
		rep.phases = append(rep.phases, res)
	}
	rep.idle = measureIdle(ctx, svcs, stats, cfg.idle)
	rep.rssMiB = peakRSS(svc.pid())
	rep.badSignatures = rc.badCount()
	rep.print(os.Stdout)
	return rep, nil
}

// waitFor waits until the receiver has every seq in [from, to).
func waitFor(rc *receiver, from, to int64, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if int64(len(rc.collect(from, to))) == to-from {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// startProfile profiles the service for the length of a phase when -profiles is set;
// the returned function waits for the profile to be written.
func startProfile(ctx context.Context, svc *service, cfg config, label, phase string) func() {
	if cfg.profiles == "" {
		return func() {}
	}
	name := strings.NewReplacer(" ", "-", "/", "per").Replace(label + "-" + phase)
	file := filepath.Join(cfg.profiles, name+".pprof")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := svc.profile(ctx, cfg.phase, file); err != nil {
			fmt.Fprintln(os.Stderr, "webhookload: profile:", err)
		}
	}()
	return func() { <-done }
}
