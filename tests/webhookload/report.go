package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

type report struct {
	label         string
	run           runOf
	floor         latencies
	phases        []phaseResult
	idle          struct{ svc, pg, backends, drained time.Duration }
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
		if p.brokerCPUms > 0 {
			fmt.Fprintf(w, "%-11s nats-server %.2f ms of CPU per event\n", p.name, p.brokerCPUms)
		}
		if p.cut != nil {
			fmt.Fprintf(w, "%-11s %s\n", p.name, p.cut)
		}
		if st := p.stages.String(); st != "" {
			fmt.Fprintf(w, "%-11s %s\n", p.name, st)
		}
		if len(p.cpuShare) > 1 {
			fmt.Fprintf(w, "%-11s per instance: CPU share %s, pairs held %s\n", p.name, shares(p.cpuShare), ints(p.pairs))
		}
	}
	for _, p := range r.phases {
		if p.tableWrites != "" {
			fmt.Fprintf(w, "%-11s PostgreSQL per event: %.1f transactions, %.0f WAL bytes (the server's), %.1f row writes, %.0f %% of updates HOT (%s)\n",
				p.name, p.xactsPerEvent, p.walPerEvent, p.writesPerEvent, 100*p.hotShare, p.tableWrites)
		}
	}
	fmt.Fprintf(w, "idle (consumers drained after %v): service %s ms, PostgreSQL %s ms (this database's backends %s ms) of CPU per 30 s; peak RSS %.0f MiB; bad signatures %d\n",
		r.idle.drained, ms(r.idle.svc), ms(r.idle.pg), ms(r.idle.backends), r.rssMiB, r.badSignatures)
	fmt.Fprintln(w, "times in ms; backlog = last webhook after the last accepted request; cpu per delivered event; floor = loopback POST without the service")
}

func formatPerEvent(f float64) string { return fmt.Sprintf("%.2f", f) }

func shares(fs []float64) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%.0f%%", f*100)
	}
	return strings.Join(out, "/")
}

func ints(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, "/")
}

// printScaling puts every run's phases in one table: throughput beside the CPU an
// event costs (all instances, PostgreSQL, the nats-server) and each instance's share.
func printScaling(w io.Writer, reports []report) {
	fmt.Fprintf(w, "\nwebhookload: scaling\n")
	fmt.Fprintf(w, "%-9s %3s %-11s %8s %8s %8s %8s | %7s %7s %7s %7s | %-12s %s\n",
		"transport", "n", "phase", "accept/s", "deliv/s", "rcpt p50", "rcpt p99",
		"svc", "pg", "nats", "cpu", "CPU share", "pairs held, xacts/event, p99 row->POST")
	for _, r := range reports {
		for _, p := range r.phases {
			fmt.Fprintf(w, "%-9s %3d %-11s %8.0f %8.0f %8s %8s | %7.2f %7.2f %7.2f %7.2f | %-12s %s, %.1f, %s\n",
				r.run.transport, r.run.instances, p.name, p.acceptedPerSec, p.deliveredPerSec, ms(p.receipt.p50), ms(p.receipt.p99),
				p.svcCPUms, p.pgCPUms, p.brokerCPUms, p.svcCPUms+p.pgCPUms+p.brokerCPUms, shares(p.cpuShare), ints(p.pairs), p.xactsPerEvent, ms(p.stages.txToSend.p99))
		}
	}
	fmt.Fprintln(w, "times in ms; CPU in ms per delivered event (svc: all instances); CPU share and pairs held per instance; nats: the nats-servers' CPU (shared with other users unless -nats-cluster)")
}
