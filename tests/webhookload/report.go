package main

import (
	"fmt"
	"io"
	"time"
)

type report struct {
	label         string
	floor         latencies
	phases        []phaseResult
	idle          struct{ svc, pg, drained time.Duration }
	rssMiB        float64
	badSignatures int
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func (r report) print(w io.Writer) {
	fmt.Fprintf(w, "\nwebhookload: %s\n", r.label)
	fmt.Fprintf(w, "%-11s %7s %9s %9s %8s %8s | %8s %8s %8s %8s | %9s %9s %9s %9s\n",
		"phase", "sent", "accept/s", "deliv/s", "api p50", "api p99",
		"rcpt p50", "rcpt p99", "rcpt max", "backlog", "svc ms/ev", "pg ms/ev", "cpu ms/ev", "p99/floor")
	for _, p := range r.phases {
		backlog := "lost"
		if p.backlog >= 0 {
			backlog = ms(p.backlog)
		}
		ratio := 0.0
		if r.floor.p99 > 0 {
			ratio = float64(p.receipt.p99) / float64(r.floor.p99)
		}
		fmt.Fprintf(w, "%-11s %7d %9.0f %9.0f %8s %8s | %8s %8s %8s %8s | %9.2f %9.2f %9.2f %8.0fx\n",
			p.name, p.sent, p.acceptedPerSec, p.deliveredPerSec, ms(p.api.p50), ms(p.api.p99),
			ms(p.receipt.p50), ms(p.receipt.p99), ms(p.receipt.max), backlog,
			p.svcCPUms, p.pgCPUms, p.svcCPUms+p.pgCPUms, ratio)
		if p.accepted != p.delivered {
			fmt.Fprintf(w, "%-11s   %d accepted, %d delivered within %v of the last request\n", "", p.accepted, p.delivered, drainLimit)
		}
	}
	for _, p := range r.phases {
		if p.tableWrites != "" {
			fmt.Fprintf(w, "%-11s PostgreSQL per event: %.1f transactions, %.1f row writes (%s)\n", p.name, p.xactsPerEvent, p.writesPerEvent, p.tableWrites)
		}
	}
	fmt.Fprintf(w, "idle (consumers drained after %v): service %s ms, PostgreSQL %s ms of CPU per 30 s; peak RSS %.0f MiB; bad signatures %d\n",
		r.idle.drained, ms(r.idle.svc), ms(r.idle.pg), r.rssMiB, r.badSignatures)
	fmt.Fprintln(w, "times in ms; backlog = last webhook after the last accepted request; cpu per delivered event; floor = loopback POST without the service")
}

func formatPerEvent(f float64) string { return fmt.Sprintf("%.2f", f) }
