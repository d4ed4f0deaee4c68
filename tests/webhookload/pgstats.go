package main

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"
)

// pgCounters are PostgreSQL's cumulative statistics for the run's database and schema:
// transactions, rows inserted, updated and deleted per table, updates that were HOT (no
// index entry written), and the WAL position. Their differences over a phase say how many
// transactions, row writes and WAL bytes an event costs. (PostgreSQL flushes these
// counters within about a second; the phases' drain wait covers that.) The WAL position is
// the server's: on a server shared with other databases their writes count too.
type pgCounters struct {
	xacts            int64
	writes           map[string]int64 // table -> n_tup_ins + n_tup_upd + n_tup_del
	updates, hotUpds int64            // all tables: n_tup_upd, n_tup_hot_upd
	wal              int64            // pg_current_wal_lsn in bytes
}

func readPGCounters(ctx context.Context, db *sqlx.DB) (pgCounters, error) {
	c := pgCounters{writes: map[string]int64{}}
	if db == nil {
		return c, nil
	}
	if _, err := db.ExecContext(ctx, `SELECT pg_stat_clear_snapshot()`); err != nil {
		return c, err
	}
	if err := db.GetContext(ctx, &c.xacts, `SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()`); err != nil {
		return c, err
	}
	if err := db.GetContext(ctx, &c.wal, `SELECT CAST(pg_current_wal_lsn() - CAST('0/0' AS pg_lsn) AS BIGINT)`); err != nil {
		return c, err
	}
	var rows []struct {
		Table   string `db:"relname"`
		Writes  int64  `db:"writes"`
		Updates int64  `db:"n_tup_upd"`
		HOT     int64  `db:"n_tup_hot_upd"`
	}
	if err := db.SelectContext(ctx, &rows, `SELECT relname, n_tup_ins + n_tup_upd + n_tup_del AS writes, n_tup_upd, n_tup_hot_upd
		FROM pg_stat_user_tables WHERE schemaname = current_schema()`); err != nil {
		return c, err
	}
	for _, r := range rows {
		c.writes[r.Table] = r.Writes
		c.updates += r.Updates
		c.hotUpds += r.HOT
	}
	return c, nil
}

// walPerEvent is the WAL written per event between two readings, in bytes, and the share
// of row updates that were HOT.
func (after pgCounters) walPerEvent(before pgCounters, events int) (bytes float64, hot float64) {
	if events == 0 || after.writes == nil {
		return 0, 0
	}
	if upd := after.updates - before.updates; upd > 0 {
		hot = float64(after.hotUpds-before.hotUpds) / float64(upd)
	}
	return float64(after.wal-before.wal) / float64(events), hot
}

// perEvent returns transactions and row writes per event between two readings, with
// the tables written, most first.
func (after pgCounters) perEvent(before pgCounters, events int) (xacts, writes float64, tables string) {
	if events == 0 || after.writes == nil {
		return 0, 0, ""
	}
	type tw struct {
		name string
		n    int64
	}
	var list []tw
	var total int64
	for t, n := range after.writes {
		if d := n - before.writes[t]; d > 0 {
			list = append(list, tw{t, d})
			total += d
		}
	}
	for i := range list { // small list: insertion sort, most writes first
		for j := i; j > 0 && list[j].n > list[j-1].n; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	var b strings.Builder
	for _, x := range list {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x.name)
		b.WriteString(" ")
		b.WriteString(formatPerEvent(float64(x.n) / float64(events)))
	}
	return float64(after.xacts-before.xacts) / float64(events), float64(total) / float64(events), b.String()
}
