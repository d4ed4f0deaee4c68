package main

import (
	"fmt"
	"os"
	"text/tabwriter"
	"time"
)

// Targets of the issue: a share of the bare handler's throughput, and p99.
const (
	sqliteRatioTarget   = 0.50
	postgresRatioTarget = 0.30
	p99Target           = 15 * time.Millisecond
)

// pair is a target and the bare baseline measured just before it, so that a machine
// busy with something else skews both alike.
type pair struct {
	bare, api result
	target    float64
}

func report(pairs []pair, lim limits, loadBefore, loadAfter string) {
	fmt.Printf("\n%d connections, %s warm-up, %s measured per target (at most %d requests); load average %s before, %s after\n\n",
		lim.conns, lim.warmup, lim.run, lim.maxRequests, loadBefore, loadAfter)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "target\trequests\treq/s\tp50\tp99\tallocs/req\tratio to bare\tverdict\t")
	for _, p := range pairs {
		row(w, p.bare, 1, "")
		ratio := p.api.perSecond() / p.bare.perSecond()
		verdict := "meets targets"
		if ratio < p.target || p.api.p99 > p99Target {
			verdict = fmt.Sprintf("BELOW (want >= %.2f, p99 <= %s)", p.target, p99Target)
		}
		row(w, p.api, ratio, verdict)
	}
	w.Flush()
}

func row(w *tabwriter.Writer, r result, ratio float64, verdict string) {
	fmt.Fprintf(w, "%s\t%d\t%.0f\t%s\t%s\t%.0f\t%.3f\t%s\t\n", r.name, r.requests, r.perSecond(),
		r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), r.allocs, ratio, verdict)
}
