// Command bench measures the public API under load on loopback against a bare fiber
// JSON handler in the same run: GET /api/v1/courses?limit=25 with a high-quota key,
// on SQLite (counting in memory) and on PostgreSQL (counting in the database).
// Every run is bounded in time and in requests. `make bench` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/creatorapi/creatorapi/tests/benchkit"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	lim := limits{}
	flag.IntVar(&lim.conns, "conns", 32, "concurrent keep-alive connections")
	flag.DurationVar(&lim.warmup, "warmup", 2*time.Second, "unrecorded warm-up per target")
	flag.DurationVar(&lim.run, "duration", 5*time.Second, "measured run per target")
	flag.Int64Var(&lim.maxRequests, "max-requests", 2_000_000, "cap on requests per phase")
	pgURL := flag.String("postgres", firstSet(os.Getenv("CREATORAPI_BENCH_POSTGRES_URL"), os.Getenv("CREATORAPI_TEST_POSTGRES_URL")), "PostgreSQL server URL (empty: skip the PostgreSQL run)")
	redisURL := flag.String("redis", firstSet(os.Getenv("CREATORAPI_BENCH_REDIS_URL"), os.Getenv("CREATORAPI_TEST_REDIS_URL")), "Redis URL (empty: skip the run counting in Redis)")
	only := flag.String("only", "", "run only this target besides the baseline: sqlite, postgres or redis")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the API runs to this file")
	flag.Parse()

	bareAddr, stopBare, err := startBare()
	if err != nil {
		return err
	}
	defer stopBare()
	var pairs []pair
	// against measures the bare handler, then the API on databaseURL.
	against := func(name, databaseURL string, ratioTarget float64, env map[string]string) error {
		bare, err := measure(target{name: "bare fiber JSON", addr: bareAddr, path: "/bare"}, lim)
		if err != nil {
			return err
		}
		api, err := benchService(name, databaseURL, lim, env)
		if err != nil {
			return err
		}
		pairs = append(pairs, pair{bare: bare, api: api, target: ratioTarget})
		return nil
	}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *only == "" || *only == "sqlite" {
		dir, err := os.MkdirTemp("", "creatorapi-bench-sqlite-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if err := against("SQLite, counting in memory", "sqlite://"+filepath.Join(dir, "bench.db"), sqliteRatioTarget, nil); err != nil {
			return err
		}
	}
	if *only == "" || *only == "postgres" {
		if *pgURL == "" {
			fmt.Println("PostgreSQL run SKIPPED: set CREATORAPI_BENCH_POSTGRES_URL or -postgres")
		} else {
			dbURL, drop, err := benchkit.FreshSchema(*pgURL)
			if err != nil {
				return err
			}
			defer drop()
			if err := against("PostgreSQL, shared counting", dbURL, postgresRatioTarget, nil); err != nil {
				return err
			}
		}
	}
	if *only == "" || *only == "redis" {
		if *pgURL == "" || *redisURL == "" {
			fmt.Println("PostgreSQL + Redis run SKIPPED: set the PostgreSQL and CREATORAPI_BENCH_REDIS_URL or -redis")
		} else {
			dbURL, drop, err := benchkit.FreshSchema(*pgURL)
			if err != nil {
				return err
			}
			defer drop()
			prefix := fmt.Sprintf("creatorapi-bench:%d:", time.Now().UnixNano())
			env := map[string]string{"CREATORAPI_RATE_LIMIT_STORE": "redis", "CREATORAPI_REDIS_URL": *redisURL, "CREATORAPI_REDIS_PREFIX": prefix}
			if err := against("PostgreSQL, shared counting in Redis", dbURL, postgresRatioTarget, env); err != nil {
				return err
			}
		}
	}
	report(pairs, lim)
	return nil
}

// benchService starts the service on databaseURL, seeds 30 published courses and
// loads the first page of 25.
func benchService(name, databaseURL string, lim limits, env map[string]string) (result, error) {
	s, err := startService(databaseURL, env)
	if err != nil {
		return result{}, err
	}
	defer s.stop()
	key, err := s.seed(30)
	if err != nil {
		return result{}, fmt.Errorf("seed: %w", err)
	}
	return measure(target{name: name, addr: s.publicAddr, path: "/api/v1/courses?limit=25", bearer: key}, lim)
}

func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
