package dashboard

import (
	"fmt"
	"html/template"
	"strings"

	webhookquery "github.com/creatorapi/creatorapi/application/webhooks/query"
)

// healthData is an endpoint's health card: the figures of the last 24 hours and 7 days
// and a chart of the last 24 hours.
type healthData struct {
	Windows []healthWindow
	Chart   template.HTML
}

type healthWindow struct {
	Name string
	webhookquery.HealthWindow
}

func newHealthData(h webhookquery.Health) healthData {
	return healthData{
		Windows: []healthWindow{{"Last 24 hours", h.Last24h}, {"Last 7 days", h.Last7d}},
		Chart:   healthChart(h.Hours),
	}
}

// healthChart draws the attempts of each hour as a bar: the succeeded part below, the
// failed part above it in red, each with a <title> giving the hour's figures. Drawn like
// barChart: bars only in the SVG, the labels in HTML beside it.
func healthChart(hours []webhookquery.HealthHour) template.HTML {
	hi := 1
	for _, h := range hours {
		hi = max(hi, h.Attempts)
	}
	esc := template.HTMLEscapeString
	slot := plotW / float64(max(len(hours), 1))
	y := func(v int) float64 { return plotH * float64(hi-v) / float64(hi) }
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="plot"><div class="axis-y"><span>%d</span><span>0</span></div>`, hi)
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="%s" viewBox="0 0 %.0f %.0f" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">`,
		esc("Attempts per hour over the last 24 hours, failed ones in red"), plotW, plotH)
	fmt.Fprintf(&b, `<line x1="0" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#c4cad3" vector-effect="non-scaling-stroke"/>`, plotH, plotW, plotH)
	for i, h := range hours {
		if h.Attempts == 0 {
			continue
		}
		x, w := float64(i)*slot+slot*0.1, slot*0.8
		title := esc(fmt.Sprintf("%s UTC: %d attempts, %d succeeded, %d failed", h.Hour.Format("2 Jan 15:04"), h.Attempts, h.Succeeded, h.Attempts-h.Succeeded))
		if h.Succeeded > 0 {
			fmt.Fprintf(&b, `<rect class="bar" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#2456c9"><title>%s</title></rect>`,
				x, y(h.Succeeded), w, max(plotH-y(h.Succeeded), 0.5), title)
		}
		if failed := h.Attempts - h.Succeeded; failed > 0 {
			fmt.Fprintf(&b, `<rect class="bar" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#b42318"><title>%s</title></rect>`,
				x, y(h.Attempts), w, max(y(h.Succeeded)-y(h.Attempts), 0.5), title)
		}
	}
	b.WriteString(`</svg>`)
	if n := len(hours); n > 0 {
		fmt.Fprintf(&b, `<div class="axis-x"><span>%s</span><span>%s UTC</span></div>`, hours[0].Hour.Format("2 Jan 15:04"), hours[n-1].Hour.Format("15:04"))
	}
	b.WriteString(`</div>`)
	return template.HTML(b.String()) // every text above is escaped or a number
}
