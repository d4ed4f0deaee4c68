package dashboard

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	analyticsquery "github.com/creatorapi/creatorapi/application/analytics/query"
	keyquery "github.com/creatorapi/creatorapi/application/keys/query"
)

type chart struct {
	Title string
	Total string
	SVG   any
}

type overviewData struct {
	Active, Rotate int
	APIBase        string
	From, To       string
	Summary        *analyticsquery.Summary
	Revenue        []chart // one per currency
	Completions    chart
	Requests       []chart // one per key, last 30 days
}

// requestDays is the span of the API requests charts.
const requestDays = 30

func (h *Dashboard) overview(c *fiber.Ctx) error {
	ws := membershipOf(c).WorkspaceID
	counts, err := h.d.Keys.Queries.KeyCounts.Handle(c.UserContext(), ws)
	if err != nil {
		return err
	}
	d := overviewData{Active: counts.Active, Rotate: counts.RotationDue, APIBase: h.d.PublicURL, From: c.Query("from"), To: c.Query("to")}
	status, errText := fiber.StatusOK, ""
	if h.d.Summary != nil {
		q := analyticsquery.GetSummary{WorkspaceID: ws, From: d.From, To: d.To}
		if msg, ok := formError(h.fillAnalytics(c, q, &d)); ok {
			status, errText = fiber.StatusUnprocessableEntity, msg
			d.Revenue, d.Summary = nil, nil
		} else if err != nil {
			return err
		}
	}
	if h.d.Keys.Queries.RequestsPerDay != nil {
		if err := h.fillRequests(c, ws, &d); err != nil {
			return err
		}
	}
	return h.render(c, status, "overview", view{Title: "Overview", Nav: "overview", Error: errText, Data: d})
}

func (h *Dashboard) fillAnalytics(c *fiber.Ctx, q analyticsquery.GetSummary, d *overviewData) error {
	s, err := h.d.Summary.Handle(c.UserContext(), q)
	if err != nil {
		return err
	}
	days, err := h.d.Daily.Handle(c.UserContext(), q)
	if err != nil {
		return err
	}
	d.Summary = &s
	d.From, d.To = s.Window.From, s.Window.To
	byCurrency := map[string]series{}
	var currencies []string
	for _, r := range days.Revenue {
		sr, ok := byCurrency[r.Currency]
		if !ok {
			sr = newSeries(days.From, days.To)
			byCurrency[r.Currency] = sr
			currencies = append(currencies, r.Currency)
		}
		sr.add(r.Day, r.Net)
	}
	for _, cur := range currencies {
		var total int64
		for _, v := range byCurrency[cur].Values {
			total += v
		}
		d.Revenue = append(d.Revenue, chart{Title: "Net revenue per day, " + strings.ToUpper(cur), Total: money(cur)(total),
			SVG: barChart("Net revenue per day in "+strings.ToUpper(cur), byCurrency[cur], money(cur))})
	}
	done := newSeries(days.From, days.To)
	var total int64
	for _, x := range days.Completions {
		done.add(x.Day, x.N)
		total += x.N
	}
	d.Completions = chart{Title: "Completions per day", Total: count(total), SVG: barChart("Course completions per day", done, count)}
	return nil
}

func (h *Dashboard) fillRequests(c *fiber.Ctx, ws string, d *overviewData) error {
	now := h.d.Clock.Now().UTC()
	to := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	from := to.AddDate(0, 0, -(requestDays - 1))
	rows, err := h.d.Keys.Queries.RequestsPerDay.Handle(c.UserContext(), keyquery.RequestsPerDay{WorkspaceID: ws, From: from, To: to})
	if err != nil {
		return err
	}
	var order []string
	names := map[string]string{}
	perKey := map[string]series{}
	totals := map[string]int64{}
	for _, r := range rows {
		s, ok := perKey[r.KeyID]
		if !ok {
			s = newSeries(from, to)
			perKey[r.KeyID], names[r.KeyID] = s, r.Name
			order = append(order, r.KeyID)
		}
		day, _ := time.Parse("2006-01-02", r.Day)
		s.add(day, r.Requests)
		totals[r.KeyID] += r.Requests
	}
	for _, id := range order {
		d.Requests = append(d.Requests, chart{Title: names[id], Total: count(totals[id]),
			SVG: barChart("API requests per day with key "+names[id], perKey[id], count)})
	}
	return nil
}
