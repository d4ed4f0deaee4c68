package dashboard

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	webhookquery "github.com/creatorapi/creatorapi/application/webhooks/query"
)

// typeBox is one event-type checkbox: the exact name and a one-line description.
type typeBox struct {
	Name, Description string
	Checked           bool
}

func typeBoxes(checked []string) []typeBox {
	on := map[string]bool{}
	for _, t := range checked {
		on[t] = true
	}
	out := make([]typeBox, len(catalog.Entries))
	for i, e := range catalog.Entries {
		out[i] = typeBox{Name: e.Type, Description: e.Cause, Checked: on[e.Type]}
	}
	return out
}

// endpointRow is an endpoint with its last 24 hours.
type endpointRow struct {
	webhookquery.Webhook
	Stats webhookquery.EndpointStats
}

type webhooksData struct {
	URL       string
	Types     []typeBox
	Endpoints []endpointRow
}

func (h *Dashboard) webhooksPage(c *fiber.Ctx) error {
	return h.renderWebhooks(c, fiber.StatusOK, "", "", nil)
}

func (h *Dashboard) renderWebhooks(c *fiber.Ctx, status int, errText, url string, checked []string) error {
	ws := dataWorkspace(c)
	list, err := h.d.Webhooks.Queries.ListWebhooks.Handle(c.UserContext(), ws)
	if err != nil {
		return err
	}
	stats, err := h.d.Webhooks.Queries.DeliveryStats.Handle(c.UserContext(), webhookquery.DeliveryStats{WorkspaceID: ws, Since: h.d.Clock.Now().Add(-24 * time.Hour)})
	if err != nil {
		return err
	}
	rows := make([]endpointRow, len(list))
	for i, w := range list {
		rows[i] = endpointRow{Webhook: w, Stats: stats[w.ID]}
	}
	return h.render(c, status, "webhooks", view{Title: "Webhooks", Nav: "webhooks", Error: errText,
		Notice: webhookNotices.of(c), Data: webhooksData{URL: url, Types: typeBoxes(checked), Endpoints: rows}})
}

type secretData struct {
	Title, Lead string
	Webhook     webhookquery.Webhook
	Secret      string
}

// createWebhook shows the signing secret in the response to the POST, once (no-store).
func (h *Dashboard) createWebhook(c *fiber.Ctx) error {
	url, types := formValue(c, "url"), formValues(c, "events")
	ws, err := h.openDataWorkspace(c)
	if err != nil {
		return err
	}
	w, err := h.d.Webhooks.Commands.CreateWebhook.Handle(c.UserContext(), webhookcmd.CreateWebhook{
		WorkspaceID: ws, URL: url, Events: types})
	if msg, ok := formError(err); ok {
		return h.renderWebhooks(c, fiber.StatusUnprocessableEntity, msg, url, types)
	}
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return h.render(c, fiber.StatusCreated, "webhook_secret", view{Title: "Endpoint added", Nav: "webhooks",
		Data: secretData{Title: "Endpoint added", Lead: "Deliveries to " + w.URL + " are signed with this secret.", Webhook: w.Webhook, Secret: w.SigningSecret}})
}

func (h *Dashboard) catalogPage(c *fiber.Ctx) error {
	return h.render(c, fiber.StatusOK, "catalog", view{Title: "Event catalogue", Nav: "webhooks", Data: catalogView(h.d.Clock.Now())})
}
