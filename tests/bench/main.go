// Command bench measures the public API of the built binary over HTTP against a bare
// fiber JSON handler (a process of its own, started the same way) in the same run:
// GET /api/v1/courses?limit=25 with a high-quota key and 32 keep-alive connections, on
// SQLite (counting in memory), on PostgreSQL (counting in it, by leased blocks), on
// PostgreSQL counting in Redis (by leased blocks too), and two instances on one PostgreSQL behind a
// round-robin proxy, whose counting is checked exact (a key of 30 a minute used
// alternately through both gets exactly 30). Each row: req/s, p50/p99, heap allocations
// per request (the process's go_memstats_mallocs_total over the run) and the ratio to
// the bare handler measured just before it. Every run is bounded in time and in
// requests. `make bench` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/tests/benchkit"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-serve-bare" {
		if err := serveBare(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "bare:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	lim := limits{}
	flag.IntVar(&lim.conns, "conns", 32, "concurrent keep-alive connections")
	flag.DurationVar(&lim.warmup, "warmup", 2*time.Second, "unrecorded warm-up per target")
	flag.DurationVar(&lim.run, "duration", 8*time.Second, "measured run per target")
	flag.Int64Var(&lim.maxRequests, "max-requests", 2_000_000, "cap on requests per phase")
	pgURL := flag.String("postgres", firstSet(os.Getenv("CREATORAPI_BENCH_POSTGRES_URL"), os.Getenv("CREATORAPI_TEST_POSTGRES_URL")), "PostgreSQL server URL (empty: skip the PostgreSQL runs)")
	redisURL := flag.String("redis", firstSet(os.Getenv("CREATORAPI_BENCH_REDIS_URL"), os.Getenv("CREATORAPI_TEST_REDIS_URL")), "Redis URL (empty: skip the run counting in Redis)")
	prebuilt := flag.String("bin", "", "run this creatorapi binary instead of building ./cmd/creatorapi (to compare two builds)")
	only := flag.String("only", "", "run only these targets besides the baseline, comma-separated: sqlite, postgres, redis, two")
	profileDir := flag.String("profile", "", "write each target's CPU and allocation profiles of its measured run into this folder (the service runs with CREATORAPI_PPROF=true)")
	flag.Parse()
	selected := func(name string) bool {
		return *only == "" || strings.Contains(","+*only+",", ","+name+",")
	}

	tmp, err := os.MkdirTemp("", "creatorapi-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := *prebuilt
	if bin == "" {
		if bin, err = benchkit.BuildBinary(tmp); err != nil {
			return err
		}
	}
	bare, err := startBare()
	if err != nil {
		return err
	}
	defer bare.stop()
	loadBefore := loadAverage()

	var pairs []pair
	var notes []string
	// against measures the bare handler, then the API through addr.
	against := func(api target, apiMallocs func() (float64, error), ratioTarget float64) error {
		b, err := measure(target{name: "bare fiber JSON", addr: bare.addr, path: "/bare"}, lim, bare.mallocs)
		if err != nil {
			return err
		}
		a, err := measure(api, lim, apiMallocs)
		if err != nil {
			return err
		}
		pairs = append(pairs, pair{bare: b, api: a, target: ratioTarget})
		return nil
	}
	single := func(name, databaseURL string, ratioTarget float64, env map[string]string) error {
		if *profileDir != "" {
			env = withSetting(env, "CREATORAPI_PPROF", "true")
		}
		s, err := startService(bin, databaseURL, env)
		if err != nil {
			return err
		}
		defer s.stop()
		key, err := s.seed(30)
		if err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		tgt := coursesTarget(name, s.publicAddr, key)
		if *profileDir != "" {
			tgt.onRun = func(d time.Duration) func() error { return profiler{dir: *profileDir}.during(name, s.opAddr, d) }
		}
		return against(tgt, s.mallocs, ratioTarget)
	}

	if selected("sqlite") {
		if err := single("creatorapi, SQLite (counting in memory)", "sqlite://"+filepath.Join(tmp, "bench.db"), sqliteRatioTarget, nil); err != nil {
			return err
		}
	}
	if *pgURL == "" {
		fmt.Println("PostgreSQL runs SKIPPED: set CREATORAPI_BENCH_POSTGRES_URL or -postgres")
	} else {
		if selected("postgres") {
			if err := onFreshSchema(*pgURL, func(dbURL string) error {
				return single("creatorapi, PostgreSQL (leased counting in it)", dbURL, postgresRatioTarget, nil)
			}); err != nil {
				return err
			}
		}
		if selected("redis") && *redisURL != "" {
			prefix := fmt.Sprintf("creatorapi-bench:%d:", time.Now().UnixNano())
			env := map[string]string{"CREATORAPI_RATE_LIMIT_STORE": "redis", "CREATORAPI_REDIS_URL": *redisURL, "CREATORAPI_REDIS_PREFIX": prefix}
			if err := onFreshSchema(*pgURL, func(dbURL string) error {
				return single("creatorapi, PostgreSQL (leased counting in Redis)", dbURL, postgresRatioTarget, env)
			}); err != nil {
				return err
			}
		}
		if selected("two") {
			if err := onFreshSchema(*pgURL, func(dbURL string) error {
				note, err := twoInstances(bin, dbURL, lim, against)
				notes = append(notes, note)
				return err
			}); err != nil {
				return err
			}
		}
	}
	report(pairs, lim, loadBefore, loadAverage())
	for _, n := range notes {
		fmt.Println(n)
	}
	return nil
}

// twoInstances runs two services on one PostgreSQL database behind a round-robin
// proxy: the throughput row, then the exactness check of the counting.
func twoInstances(bin, dbURL string, lim limits, against func(target, func() (float64, error), float64) error) (string, error) {
	a, err := startService(bin, dbURL, nil)
	if err != nil {
		return "", err
	}
	defer a.stop()
	b, err := startService(bin, dbURL, nil)
	if err != nil {
		return "", err
	}
	defer b.stop()
	key, err := a.seed(30)
	if err != nil {
		return "", fmt.Errorf("seed: %w", err)
	}
	proxy, err := startRoundRobin(a.publicAddr, b.publicAddr)
	if err != nil {
		return "", err
	}
	defer proxy.stop()
	both := func() (float64, error) {
		x, err := a.mallocs()
		if err != nil {
			return 0, err
		}
		y, err := b.mallocs()
		return x + y, err
	}
	if err := against(coursesTarget("creatorapi, 2 instances on one PostgreSQL, round-robin", proxy.addr(), key), both, postgresRatioTarget); err != nil {
		return "", err
	}
	return exactAcrossInstances(a, proxy.addr())
}

func coursesTarget(name, addr, key string) target {
	return target{name: name, addr: addr, path: "/api/v1/courses?limit=25", bearer: key}
}

func onFreshSchema(pgURL string, fn func(dbURL string) error) error {
	dbURL, drop, err := benchkit.FreshSchema(pgURL)
	if err != nil {
		return err
	}
	defer drop()
	return fn(dbURL)
}

func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// withSetting returns env with name set to value (env is not modified).
func withSetting(env map[string]string, name, value string) map[string]string {
	out := map[string]string{name: value}
	for k, v := range env {
		if k != name {
			out[k] = v
		}
	}
	return out
}

func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
