// Command webhookload measures the webhook path the way users take it: the built binary
// serving over HTTP, an open-loop driver sending POST /api/v1/students (each request
// carrying its send time), and a receiver that verifies every signature and dedupes on
// the event id. Phases of 50, 200 and 500 requests/s, then saturation (32 connections);
// for each: API p50/p99, send-to-receipt p50/p99/max, deliveries/s, the backlog after the
// last accepted request, CPU per delivered event of the service and of PostgreSQL (from
// /proc), and the service's peak RSS. On PostgreSQL it runs on a fresh database (no
// statistics) and on an aged one (a million events with their deliveries and attempts,
// analysed); on SQLite on a fresh one. Run by `make bench`; the machine should be quiet.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
}

func main() {
	var cfg config
	states := flag.String("states", "fresh,aged", "PostgreSQL database states to run: fresh, aged, aged-unanalysed")
	flag.DurationVar(&cfg.phase, "phase", 15*time.Second, "length of each load phase")
	flag.DurationVar(&cfg.idle, "idle", 15*time.Second, "length of the idle measurement")
	flag.IntVar(&cfg.agedRows, "aged-rows", 1_000_000, "events (and deliveries, attempts, students) in the aged database")
	flag.BoolVar(&cfg.sqlite, "sqlite", true, "also run on a fresh SQLite database")
	flag.StringVar(&cfg.profiles, "profiles", "", "write a CPU profile of the service per phase into this folder (go tool pprof)")
	flag.BoolVar(&cfg.logSQL, "log-statements", false, "log every statement of the run's PostgreSQL database to the server log")
	phases := flag.String("phases", "50,200,500,saturation", "load phases: requests/s, or saturation (32 connections)")
	flag.Parse()
	cfg.states = strings.Split(*states, ",")
	for _, p := range strings.Split(*phases, ",") {
		if p == "saturation" {
			cfg.phases = append(cfg.phases, phase{name: p, conns: 32})
		} else if rate, err := strconv.Atoi(p); err == nil && rate > 0 {
			cfg.phases = append(cfg.phases, phase{name: p + "/s", rate: rate})
		} else {
			fmt.Fprintf(os.Stderr, "webhookload: -phases: %q is neither a rate nor saturation\n", p)
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
	bin, err := buildBinary(dir)
	if err != nil {
		return err
	}
	floor, err := measureFloor(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("webhookload: baseline (driver -> receiver directly, 200/s): p50 %v, p99 %v\n", floor.p50, floor.p99)
	if cfg.pgBaseURL == "" {
		fmt.Println("webhookload: PostgreSQL SKIPPED (set CREATORAPI_TEST_POSTGRES_URL)")
	}
	for _, state := range cfg.states {
		if cfg.pgBaseURL == "" {
			break
		}
		dbURL, drop, err := freshDatabase(ctx, cfg.pgBaseURL, cfg.logSQL)
		if err != nil {
			return err
		}
		err = runState(ctx, cfg, bin, filepath.Join(dir, "pg-"+state), dbURL, "postgres", state, floor)
		drop()
		if err != nil {
			return fmt.Errorf("postgres %s: %w", state, err)
		}
	}
	if cfg.sqlite {
		dbURL := "sqlite://" + filepath.Join(dir, "sqlite", "load.db")
		if err := runState(ctx, cfg, bin, filepath.Join(dir, "sqlite"), dbURL, "sqlite", "fresh", floor); err != nil {
			return fmt.Errorf("sqlite: %w", err)
		}
	}
	return nil
}

// runState starts the service on one database, makes it aged when asked, and runs the phases.
func runState(ctx context.Context, cfg config, bin, dataDir, dbURL, engine, state string, floor latencies) error {
	rc := newReceiver()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: rc}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	svc, err := newService(bin, dataDir, dbURL)
	if err != nil {
		return err
	}
	if err := svc.start(); err != nil {
		return err
	}
	defer svc.stop()
	ws, err := svc.setup(ctx, "http://"+ln.Addr().String()+"/hook")
	if err != nil {
		return err
	}
	rc.secret = ws.signingSecret
	d := newDriver(svc.publicAddr, ws.key)
	label := engine + " " + state
	if state == "aged" || state == "aged-unanalysed" {
		// One real event leaves the template rows the loader copies.
		first := d.send(ctx, time.Now())
		if !first.ok || !waitFor(rc, first.seq, first.seq+1, 30*time.Second) {
			return fmt.Errorf("the template event was not delivered")
		}
		svc.stop()
		took, err := ageDatabase(ctx, dbURL, cfg.agedRows, state == "aged")
		if err != nil {
			return err
		}
		fmt.Printf("webhookload: %s: loaded %d events with deliveries and attempts in %v\n", label, cfg.agedRows, took.Round(time.Second))
		if err := svc.start(); err != nil {
			return err
		}
	}
	var stats *sqlx.DB // PostgreSQL's counters, read through a connection of our own
	if engine == "postgres" {
		if stats, err = sqlx.Open("pgx", dbURL); err != nil {
			return err
		}
		defer stats.Close()
	}
	rep := report{label: label, floor: floor}
	for _, ph := range cfg.phases {
		stopProfile := startProfile(ctx, svc, cfg, label, ph.name)
		res, err := runPhase(ctx, svc, d, rc, stats, ph, cfg.phase)
		stopProfile()
		if err != nil {
			return err
		}
		rep.phases = append(rep.phases, res)
	}
	rep.idle = measureIdle(svc, cfg.idle)
	rep.rssMiB = peakRSS(svc.pid())
	rep.badSignatures = rc.badCount()
	rep.print(os.Stdout)
	return nil
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
