package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/command"
)

// measured is the workspace whose summary is timed.
const measured = "org_measured"

// seedDays is how far back the seeded history goes: two years, so that the 366-day
// window reads half of the measured workspace's rows.
const seedDays = 730

var currencies = []string{"eur", "gbp", "usd"}

type revenueRow struct {
	ws       string
	day      int64
	currency string
	orders   int64
}

// seed writes the read model of orders orders: half to the measured workspace, spread
// over every day and currency, half to orders/1000 other workspaces (500 orders each on
// random days), so that the tables grow with the order count as they would. Every
// revenue row comes with an activity row of the same day. It returns the rows written.
func seed(ctx context.Context, db *sqldb.DB, orders int) (int, error) {
	today := int64(command.DayOf(time.Now()))
	rng := rand.New(rand.NewPCG(1, 2))
	agg := map[revenueRow]int64{}
	perSlot := int64(orders / 2 / (seedDays * len(currencies)))
	for d := range int64(seedDays) {
		for _, c := range currencies {
			agg[revenueRow{measured, today - d, c, 0}] += max(1, perSlot)
		}
	}
	for w := range orders / 1000 {
		ws := fmt.Sprintf("org_other%05d", w)
		for range 500 {
			agg[revenueRow{ws, today - rng.Int64N(seedDays), currencies[rng.IntN(len(currencies))], 0}]++
		}
	}
	rev := make([]revenueRow, 0, len(agg))
	days := map[[2]any]bool{}
	for k, n := range agg {
		k.orders = n
		rev = append(rev, k)
		days[[2]any{k.ws, k.day}] = true
	}
	err := db.WithinTx(ctx, func(ctx context.Context) error {
		if err := insertBatches(ctx, db, `INSERT INTO analytics_revenue_daily (workspace_id, day, currency, gross, refunded, orders, refunds) VALUES `,
			7, len(rev), func(i int) []any {
				r := rev[i]
				return []any{r.ws, r.day, r.currency, r.orders * 4900, r.orders * 300, r.orders, r.orders / 10}
			}); err != nil {
			return err
		}
		act := make([][2]any, 0, len(days))
		for k := range days {
			act = append(act, k)
		}
		return insertBatches(ctx, db, `INSERT INTO analytics_activity_daily (workspace_id, day, students_new, enrollments_created,
			enrollments_revoked, enrollments_completed, cohort_completed, lessons_completed) VALUES `,
			8, len(act), func(i int) []any { return []any{act[i][0], act[i][1], 3, 4, 1, 1, 2, 9} })
	})
	return len(rev) + len(days), err
}

// insertBatches inserts n rows of cols values with multi-row VALUES lists.
func insertBatches(ctx context.Context, db *sqldb.DB, prefix string, cols, n int, row func(i int) []any) error {
	const batch = 500
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	for lo := 0; lo < n; lo += batch {
		hi := min(n, lo+batch)
		args := make([]any, 0, (hi-lo)*cols)
		tuples := make([]string, 0, hi-lo)
		for i := lo; i < hi; i++ {
			args = append(args, row(i)...)
			tuples = append(tuples, tuple)
		}
		if _, err := db.Write(ctx).ExecContext(ctx, db.Rebind(prefix+strings.Join(tuples, ", ")), args...); err != nil {
			return err
		}
	}
	return nil
}
