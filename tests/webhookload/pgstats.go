package main

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"
)

// pgCounters are PostgreSQL's cumulative statistics for the run's database and schema:
// transactions, and rows inserted, updated and deleted per table. Their differences over
// a phase say how many transactions and row writes an event costs. (PostgreSQL flushes
// these counters within about a second; the phases' drain wait covers that.)
type pgCounters struct {
	xacts  int64
	writes map[string]int64 // table -> n_tup_ins + n_tup_upd + n_tup_del
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
	var rows []struct {
		Table  string `db:"relname"`
		Writes int64  `db:"writes"`
	}
	if err := db.SelectContext(ctx, &rows, `SELECT relname, n_tup_ins + n_tup_upd + n_tup_del AS writes
		FROM pg_stat_user_tables WHERE schemaname = current_schema()`); err != nil {
		return c, err
	}
	for _, r := range rows {
		c.writes[r.Table] = r.Writes
	}
	return c, nil
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
