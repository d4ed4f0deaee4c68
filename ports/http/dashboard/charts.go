package dashboard

import (
	"fmt"
	"html/template"
	"strings"
	"time"
)

// Charts are SVG drawn on the server: no script, no library, nothing from elsewhere
// (the CSP allows none). Each bar carries a <title> for its exact figure.

const (
	chartW, chartH = 720.0, 170.0
	padL, padB     = 64.0, 22.0
	padT           = 10.0
)

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
	plotW, plotH := chartW-padL-8, chartH-padT-padB
	y := func(v int64) float64 { return padT + plotH*float64(hi-v)/float64(hi-lo) }
	slot := plotW / float64(max(len(s.Days), 1))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="%s" viewBox="0 0 %.0f %.0f" width="100%%" preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">`,
		template.HTMLEscapeString(name), chartW, chartH)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c4cad3"/>`, padL, y(0), chartW-8, y(0))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="11" fill="#5f6b7a">%s</text>`, padL-6, y(hi)+4, template.HTMLEscapeString(label(hi)))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="11" fill="#5f6b7a">%s</text>`, padL-6, y(lo)+4, template.HTMLEscapeString(label(lo)))
	for i, v := range s.Values {
		top, bottom := y(max(v, 0)), y(min(v, 0))
		fill := "#2456c9"
		if v < 0 {
			fill = "#b42318"
		}
		fmt.Fprintf(&b, `<rect class="bar" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s: %s</title></rect>`,
			padL+float64(i)*slot+slot*0.1, top, slot*0.8, max(bottom-top, 0.5), fill,
			s.Days[i].Format("2006-01-02"), template.HTMLEscapeString(label(v)))
	}
	if n := len(s.Days); n > 0 {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="11" fill="#5f6b7a">%s</text>`, padL, chartH-6, s.Days[0].Format("2 Jan"))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="11" fill="#5f6b7a">%s</text>`, chartW-8, chartH-6, s.Days[n-1].Format("2 Jan 2006"))
	}
	b.WriteString(`</svg>`)
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
