package dashboard

import (
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	webhookquery "github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// deliveriesPerPage keeps a log page fast whatever the log's size.
const deliveriesPerPage = 50

// sinceLayout is the datetime-local input's format, read as UTC.
const sinceLayout = "2006-01-02T15:04"

type logData struct {
	Webhook    webhookquery.Webhook
	Filter     webhookquery.LogFilter
	Types      []string
	Statuses   []string
	Deliveries []*webhooks.Delivery
	Next       template.URL // the "Older" link, with the filters (built here, not escaped again)
	Since      string
}

func (h *Dashboard) deliveriesPage(c *fiber.Ctx) error {
	w, err := h.findWebhook(c)
	if err != nil {
		return err
	}
	f := webhookquery.LogFilter{WorkspaceID: dataWorkspace(c), WebhookID: w.ID,
		Status: c.Query("status"), EventType: c.Query("type"), Search: c.Query("q")}
	page, err := h.d.Webhooks.Queries.DeliveryLogPage.Handle(c.UserContext(), webhookquery.DeliveryLogPage{Filter: f,
		Page: platform.PageRequest{Limit: deliveriesPerPage, After: parsePosition(c.Query("before"))}})
	if msg, ok := formError(err); ok {
		return fiber.NewError(fiber.StatusBadRequest, msg)
	}
	if err != nil {
		return err
	}
	d := logData{Webhook: w, Filter: f, Deliveries: page.Items,
		Statuses: []string{webhookquery.LogSucceeded, webhookquery.LogFailing, webhookquery.LogFailed, webhookquery.LogPending}}
	for _, e := range catalog.Entries {
		d.Types = append(d.Types, e.Type)
	}
	if page.Next != nil {
		q := url.Values{"before": {formatPosition(page.Next)}}
		if testMode(c) {
			q.Set("mode", "test")
		}
		for k, v := range map[string]string{"status": f.Status, "type": f.EventType, "q": f.Search} {
			if v != "" {
				q.Set(k, v)
			}
		}
		d.Next = template.URL(Prefix + "/w/" + membershipOf(c).WorkspaceID + "/webhooks/" + w.ID + "/deliveries?" + q.Encode())
	}
	since := h.d.Clock.Now().Add(-24 * time.Hour)
	if w.FailingSince != nil {
		since = *w.FailingSince
	} else if w.DisabledAt != nil {
		since = *w.DisabledAt
	}
	d.Since = since.UTC().Format(sinceLayout)
	return h.render(c, fiber.StatusOK, "deliveries", view{Title: "Delivery log", Nav: "webhooks",
		Notice: webhookNotices.of(c) + recoveredNotice(c), Data: d})
}

type headerLine struct{ Name, Value string }

type attemptView struct {
	webhooks.Attempt
	Headers []headerLine
}

type deliveryData struct {
	Webhook  webhookquery.Webhook
	Delivery *webhooks.Delivery
	Payload  string
	Attempts []attemptView
	Test     bool
}

func (h *Dashboard) deliveryPage(c *fiber.Ctx) error {
	w, err := h.findWebhook(c)
	if err != nil {
		return err
	}
	ws := dataWorkspace(c)
	det, err := h.d.Webhooks.Queries.GetDelivery.Handle(c.UserContext(), webhookquery.GetDelivery{WorkspaceID: ws, WebhookID: w.ID, DeliveryID: c.Params("did")})
	if err != nil {
		return err
	}
	d := deliveryData{Webhook: w, Delivery: det.Delivery, Payload: string(det.Delivery.Payload), Test: webhooks.IsTestEvent(det.Delivery.EventID)}
	for _, a := range det.Attempts {
		v := attemptView{Attempt: a}
		if h.d.RequestHeaders != nil {
			hdr, err := h.d.RequestHeaders(c.UserContext(), ws, det.Delivery, a.At)
			if err != nil {
				return err
			}
			v.Headers = headerLines(hdr)
		}
		d.Attempts = append(d.Attempts, v)
	}
	notice := logNotices.of(c)
	return h.render(c, fiber.StatusOK, "delivery", view{Title: "Delivery " + det.Delivery.ID, Nav: "webhooks", Notice: notice, Data: d})
}

func headerLines(h http.Header) []headerLine {
	var out []headerLine
	for name, vs := range h {
		for _, v := range vs {
			out = append(out, headerLine{Name: name, Value: v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (h *Dashboard) resendDelivery(c *fiber.Ctx) error {
	ws := dataWorkspace(c)
	w, err := h.findWebhook(c)
	if err != nil {
		return err
	}
	if _, err := h.d.Webhooks.Queries.GetDelivery.Handle(c.UserContext(), webhookquery.GetDelivery{WorkspaceID: ws, WebhookID: w.ID, DeliveryID: c.Params("did")}); err != nil {
		return err
	}
	_, err = h.d.Webhooks.Commands.ResendDelivery.Handle(c.UserContext(), webhookcmd.ResendDelivery{WorkspaceID: ws, DeliveryID: c.Params("did")})
	if msg, ok := formError(err); ok {
		return fiber.NewError(fiber.StatusUnprocessableEntity, msg)
	}
	if err != nil {
		return err
	}
	return c.Redirect(withMode(c, Prefix+"/w/"+membershipOf(c).WorkspaceID+"/webhooks/"+w.ID+"/deliveries/"+c.Params("did")+"?notice=resent"), fiber.StatusSeeOther)
}

func (h *Dashboard) recoverDeliveries(c *fiber.Ctx) error {
	ws := dataWorkspace(c)
	since, err := time.Parse(sinceLayout, formValue(c, "since"))
	if err != nil {
		return fiber.NewError(fiber.StatusUnprocessableEntity, "Since: give a date and time (UTC), e.g. 2026-01-31T08:00.")
	}
	r, err := h.d.Webhooks.Commands.RecoverDeliveries.Handle(c.UserContext(), webhookcmd.RecoverDeliveries{
		WorkspaceID: ws, WebhookID: c.Params("id"), Since: since.UTC()})
	if msg, ok := formError(err); ok {
		return fiber.NewError(fiber.StatusUnprocessableEntity, msg)
	}
	if err != nil {
		return err
	}
	q := url.Values{"recovered": {strconv.Itoa(r.Recovered)}}
	if testMode(c) {
		q.Set("mode", "test")
	}
	return c.Redirect(Prefix+"/w/"+membershipOf(c).WorkspaceID+"/webhooks/"+c.Params("id")+"/deliveries?"+q.Encode(), fiber.StatusSeeOther)
}
