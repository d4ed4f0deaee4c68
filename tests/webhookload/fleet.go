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

func newFleet(n int, bin, dataDir, dbURL string, env []string) (fleet, error) {
	f := make(fleet, n)
	for i := range f {
		s, err := newService(bin, filepath.Join(dataDir, fmt.Sprintf("instance%d", i)), dbURL, env)
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

// spreadOf says how the run's workspaces fall on the deployment's partitions: events are
// partitioned by workspace, so one workspace keeps one partition (one instance) busy.
func spreadOf(ctx context.Context, db *sqlx.DB, wss []workspace) string {
	parts := 1
	if db != nil {
		if err := db.GetContext(ctx, &parts, `SELECT parts FROM event_layout`); err != nil {
			return "partitions unknown: " + err.Error()
		}
	}
	per := make([]string, parts)
	counts := make([]int, parts)
	for _, ws := range wss {
		counts[events.PartitionOf(ws.id, parts)]++
	}
	for i, c := range counts {
		per[i] = strconv.Itoa(c)
	}
	return fmt.Sprintf("%d workspace(s) over %d partition(s), per partition %s (events are partitioned by workspace: one workspace is one partition's work)",
		len(wss), parts, strings.Join(per, "/"))
}
