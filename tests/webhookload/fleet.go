package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/application/events"
)

// fleet is the `serve` processes of one run, all on the same database.
type fleet []*service

// newFleet builds n instances; net, when not nil, routes each one's database and broker
// connections through proxies of its own (-network).
func newFleet(n int, bin, dataDir, dbURL string, env []string, net *network) (fleet, error) {
	f := make(fleet, n)
	for i := range f {
		iURL, iEnv := dbURL, env
		if net != nil {
			var err error
			if iURL, iEnv, err = net.instance(i, dbURL, env); err != nil {
				return nil, err
			}
		}
		s, err := newService(bin, filepath.Join(dataDir, fmt.Sprintf("instance%d", i)), iURL, iEnv)
		if err != nil {
			return nil, err
		}
		f[i] = s
	}
	return f, nil
}

// start starts the instances one after the other (the first migrates the database).
func (f fleet) start() error {
	for _, s := range f {
		if err := s.start(); err != nil {
			f.stop()
			return err
		}
	}
	return nil
}

func (f fleet) stop() {
	for _, s := range f {
		s.stop()
	}
}

func (f fleet) addrs() []string {
	out := make([]string, len(f))
	for i, s := range f {
		out[i] = s.publicAddr
	}
	return out
}

// cpu returns each instance's CPU time so far.
func (f fleet) cpu() ([]time.Duration, error) {
	out := make([]time.Duration, len(f))
	for i, s := range f {
		c, err := cpuOf(s.pid())
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func sum(ds []time.Duration) (t time.Duration) {
	for _, d := range ds {
		t += d
	}
	return t
}

// pairsHeld counts the live (consumer, partition) leases of each instance, from the
// event_leases table (owner = host:pid:…); nil on SQLite.
func (f fleet) pairsHeld(ctx context.Context, db *sqlx.DB) ([]int, error) {
	if db == nil {
		return nil, nil
	}
	var rows []struct {
		Owner string `db:"owner"`
		N     int    `db:"n"`
	}
	if err := db.SelectContext(ctx, &rows, `SELECT owner, count(*) AS n FROM event_leases
		WHERE owner <> '' AND expires_at >= now() AND parts = (SELECT parts FROM event_layout) GROUP BY owner`); err != nil {
		return nil, fmt.Errorf("leases: %w", err)
	}
	out := make([]int, len(f))
	for _, r := range rows {
		parts := strings.Split(r.Owner, ":")
		if len(parts) < 2 {
			continue
		}
		pid, _ := strconv.Atoi(parts[1])
		for i, s := range f {
			if s.pid() == pid {
				out[i] += r.N
			}
		}
	}
	return out, nil
}

// partitions is the deployment's partition count (event_layout); 1 on SQLite.
func partitions(ctx context.Context, db *sqlx.DB) (int, error) {
	parts := 1
	if db == nil {
		return parts, nil
	}
	if err := db.GetContext(ctx, &parts, `SELECT parts FROM event_layout`); err != nil {
		return 0, fmt.Errorf("partition count: %w", err)
	}
	return parts, nil
}

// spread keeps workspaces so that the run's n fall evenly on the partitions (events are
// partitioned by workspace, and hashing 8 random ids onto 4 partitions often leaves one
// empty and another with half the work).
type spread struct {
	counts []int
	limit  int
}

func newSpread(parts, n int) *spread {
	return &spread{counts: make([]int, parts), limit: (n + parts - 1) / parts}
}

func (s *spread) accept(workspaceID string) bool {
	p := events.PartitionOf(workspaceID, len(s.counts))
	if s.counts[p] >= s.limit {
		return false
	}
	s.counts[p]++
	return true
}

func (s *spread) String() string {
	per := make([]string, len(s.counts))
	total := 0
	for i, c := range s.counts {
		per[i], total = strconv.Itoa(c), total+c
	}
	return fmt.Sprintf("%d workspace(s) over %d partition(s), per partition %s (events are partitioned by workspace: one workspace is one partition's work)",
		total, len(s.counts), strings.Join(per, "/"))
}

// waitBalanced waits until the instances hold even shares of the (consumer, partition)
// pairs (at most one apart, none empty), so that a phase does not measure the handover
// after the instances started; it returns how long that took (at most 30 s).
func (f fleet) waitBalanced(ctx context.Context, db *sqlx.DB) (time.Duration, error) {
	start := time.Now()
	for len(f) > 1 && db != nil && time.Since(start) < 30*time.Second {
		pairs, err := f.pairsHeld(ctx, db)
		if err != nil {
			return 0, err
		}
		lo, hi := pairs[0], pairs[0]
		for _, p := range pairs {
			lo, hi = min(lo, p), max(hi, p)
		}
		if lo > 0 && hi-lo <= 1 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	return time.Since(start).Round(100 * time.Millisecond), nil
}
