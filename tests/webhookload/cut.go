package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// cutAt is when the cut phase cuts its instance off, after the phase starts.
const cutAt = 3 * time.Second

// runPhaseOrCut runs a phase; the cut phase runs long enough for the cut and 7 s after
// it, cuts the last instance off meanwhile, and counts what that cost.
func runPhaseOrCut(ctx context.Context, cfg config, net *network, svcs fleet, brokers []int, d *driver, rc *receiver, stats *sqlx.DB, ph phase) (phaseResult, error) {
	if !ph.cut {
		return runPhase(ctx, svcs, brokers, d, rc, stats, ph, cfg.phase)
	}
	if len(svcs) < 2 || stats == nil {
		return phaseResult{}, fmt.Errorf("the cut phase needs PostgreSQL and two instances or more")
	}
	dur := max(cfg.phase, cutAt+cfg.cut+7*time.Second)
	victim := len(svcs) - 1
	dups0 := rc.dupCount()
	type watched struct {
		res cutResult
		err error
	}
	done := make(chan watched, 1)
	go func() {
		res, err := watchCut(ctx, net, stats, victim, svcs[victim].pid(), cutAt, cfg.cut, cfg.cut+20*time.Second)
		done <- watched{res, err}
	}()
	r, err := runPhase(ctx, svcs, brokers, d, rc, stats, ph, dur)
	w := <-done
	if err != nil {
		return r, err
	}
	if w.err != nil {
		return r, w.err
	}
	printLogTail(svcs[victim].logPath(), 30)
	res := w.res
	res.duplicates = rc.dupCount() - dups0
	res.lost, res.unanswered = r.missing, r.unanswered
	res.refused = r.sent - r.accepted
	r.cut = &res
	return r, nil
}

func (c cutResult) String() string {
	handover, rejoined := "never (the cut was shorter than a lease)", "n/a"
	if c.handover >= 0 {
		handover, rejoined = c.handover.String(), "not within 20 s"
	}
	if c.rejoined >= 0 {
		rejoined = c.rejoined.String()
	}
	return fmt.Sprintf("cut-off instance's %d pairs held by others after %s; it held pairs again %s after the heal; %d requests refused (%d of them committed all the same: their webhooks came), %d accepted webhooks lost, %d duplicate deliveries",
		c.pairs, handover, rejoined, c.refused, c.unanswered, c.lost, c.duplicates)
}

// printLogTail prints the last n lines of the cut-off instance's log (warnings and errors:
// what it noticed of the cut, and when), each cut to 240 characters.
func printLogTail(path string, n int) {
	raw, err := os.ReadFile(path)
	if err != nil {
		fmt.Println("webhookload: the cut-off instance's log:", err)
		return
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	fmt.Printf("webhookload: the cut-off instance's log, last %d of %d lines:\n", min(n, len(lines)), len(lines))
	for _, l := range lines[max(len(lines)-n, 0):] {
		if len(l) > 240 {
			l = l[:240] + "…"
		}
		fmt.Println("  " + l)
	}
}
