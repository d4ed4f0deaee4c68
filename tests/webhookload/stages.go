package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// stages splits each delivery's send-to-receipt time at the points the database and the
// driver know: the request's send, the delivery row's created_at (the request's
// transaction, service clock), the API's answer at the driver, the first attempt's
// attempted_at (the dispatcher starts the POST) and the receipt. The figures name the
// stage a tail comes from instead of guessing it.
type stages struct {
	n                                  int
	toTx, txToSend, sendToRecv, answer latencies
	// tail: of the slowest 1 % by receipt, the mean of each stage (ms)
	tailToTx, tailTxToSend, tailSendToRecv float64
	tailClaimed                            int // tail deliveries whose first attempt began 200 ms or more after the row: a claim, not the handoff
}

type stageRow struct {
	EventID     string    `db:"event_id"`
	CreatedAt   time.Time `db:"created_at"`
	AttemptedAt time.Time `db:"attempted_at"`
}

// measureStages reads the deliveries of arrivals from the database (PostgreSQL only)
// and joins them with the driver's answers (answered: seq -> when the API answered).
func measureStages(ctx context.Context, db *sqlx.DB, arrivals map[int64]arrival, answered map[int64]time.Time) (stages, error) {
	var st stages
	if db == nil || len(arrivals) == 0 {
		return st, nil
	}
	ids := make([]string, 0, len(arrivals))
	for _, a := range arrivals {
		ids = append(ids, a.eventID)
	}
	var rows []stageRow
	if err := db.SelectContext(ctx, &rows, `SELECT d.event_id, d.created_at, a.attempted_at
		FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id AND a.number = 1
		WHERE d.event_id = ANY($1)`, ids); err != nil {
		return st, fmt.Errorf("stages: %w", err)
	}
	byEvent := make(map[string]stageRow, len(rows))
	for _, r := range rows {
		byEvent[r.EventID] = r
	}
	type one struct {
		receipt, toTx, txToSend, sendToRecv, answer time.Duration
	}
	var all []one
	for seq, a := range arrivals {
		r, ok := byEvent[a.eventID]
		if !ok {
			continue
		}
		o := one{receipt: a.latency, toTx: r.CreatedAt.Sub(a.sent), txToSend: r.AttemptedAt.Sub(r.CreatedAt), sendToRecv: a.at.Sub(r.AttemptedAt)}
		if t, ok := answered[seq]; ok {
			o.answer = t.Sub(a.sent)
		}
		all = append(all, o)
	}
	st.n = len(all)
	if st.n == 0 {
		return st, nil
	}
	pick := func(f func(one) time.Duration) latencies {
		ds := make([]time.Duration, len(all))
		for i, o := range all {
			ds[i] = f(o)
		}
		return summarize(ds)
	}
	st.toTx = pick(func(o one) time.Duration { return o.toTx })
	st.txToSend = pick(func(o one) time.Duration { return o.txToSend })
	st.sendToRecv = pick(func(o one) time.Duration { return o.sendToRecv })
	st.answer = pick(func(o one) time.Duration { return o.answer })
	sort.Slice(all, func(i, j int) bool { return all[i].receipt > all[j].receipt })
	tail := all[:max(1, len(all)/100)]
	for _, o := range tail {
		st.tailToTx += msf(o.toTx) / float64(len(tail))
		st.tailTxToSend += msf(o.txToSend) / float64(len(tail))
		st.tailSendToRecv += msf(o.sendToRecv) / float64(len(tail))
		if o.txToSend >= 200*time.Millisecond {
			st.tailClaimed++
		}
	}
	return st, nil
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (s stages) String() string {
	if s.n == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "stages p50/p99 (ms): send->row %s/%s, row->POST %s/%s, POST->receipt %s/%s, send->API answer %s/%s; ",
		ms(s.toTx.p50), ms(s.toTx.p99), ms(s.txToSend.p50), ms(s.txToSend.p99), ms(s.sendToRecv.p50), ms(s.sendToRecv.p99), ms(s.answer.p50), ms(s.answer.p99))
	fmt.Fprintf(&b, "slowest 1%% mean: send->row %.1f, row->POST %.1f, POST->receipt %.1f (%d begun >=200 ms after the row)",
		s.tailToTx, s.tailTxToSend, s.tailSendToRecv, s.tailClaimed)
	return b.String()
}
