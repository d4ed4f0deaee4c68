package dashboard

import (
	"fmt"
	"html/template"
	"strings"
	"time"
)

// Charts are SVG drawn on the server: no script, no library, nothing from elsewhere
// (the CSP allows none). Each bar carries a <title> for its exact figure. The SVG holds
// only the bars and stretches to any width and height (preserveAspectRatio="none"); the
// axis labels are HTML beside it, so that they keep their size on a phone's narrow chart.

const plotW, plotH = 600.0, 100.0

// series is one value per day of a window, in order.
type series struct {
	Days   []time.Time
	Values []int64
}

func newSeries(from, to time.Time) series {
	var s series
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		s.Days = append(s.Days, d)
		s.Values = append(s.Values, 0)
	}
	return s
}

func (s series) add(day time.Time, v int64) {
	for i, d := range s.Days {
		if d.Equal(day) {
			s.Values[i] += v
			return
		}
	}
}

// barChart draws s as bars; label formats a value (axis and titles).
func barChart(name string, s series, label func(int64) string) template.HTML {
	lo, hi := int64(0), int64(0)
	for _, v := range s.Values {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi == lo {
		hi = lo + 1
	}
	esc := template.HTMLEscapeString
	y := func(v int64) float64 { return plotH * float64(hi-v) / float64(hi-lo) }
	slot := plotW / float64(max(len(s.Days), 1))
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="plot"><div class="axis-y"><span>%s</span><span>%s</span></div>`, esc(label(hi)), esc(label(lo)))
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="%s" viewBox="0 0 %.0f %.0f" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">`,
		esc(name), plotW, plotH)
	fmt.Fprintf(&b, `<line x1="0" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#c4cad3" vector-effect="non-scaling-stroke"/>`, y(0), plotW, y(0))
	for i, v := range s.Values {
		top, bottom := y(max(v, 0)), y(min(v, 0))
		fill := "#2456c9"
		if v < 0 {
			fill = "#b42318"
		}
		fmt.Fprintf(&b, `<rect class="bar" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s: %s</title></rect>`,
			float64(i)*slot+slot*0.1, top, slot*0.8, max(bottom-top, 0.5), fill, s.Days[i].Format("2006-01-02"), esc(label(v)))
	}
	b.WriteString(`</svg>`)
	if n := len(s.Days); n > 0 {
		fmt.Fprintf(&b, `<div class="axis-x"><span>%s</span><span>%s</span></div>`, s.Days[0].Format("2 Jan"), s.Days[n-1].Format("2 Jan 2006"))
	}
	b.WriteString(`</div>`)
	return template.HTML(b.String()) // every text above is escaped
}

// money formats minor units with two decimals ("-12.50 EUR").
func money(currency string) func(int64) string {
	return func(v int64) string {
		sign := ""
		if v < 0 {
			sign, v = "-", -v
		}
		return fmt.Sprintf("%s%d.%02d %s", sign, v/100, v%100, strings.ToUpper(currency))
	}
}

func count(v int64) string { return fmt.Sprintf("%d", v) }
