package dashboard

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	webhookquery "github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

type endpointData struct {
	Webhook  webhookquery.Webhook
	URL      string
	Types    []typeBox
	AllTypes []string
	Recent   []*webhooks.Delivery
	Failed   *webhooks.Delivery // the latest delivery that failed for good, to say why
	Health   healthData
	Backfill *webhookcmd.BackfillView
}

// findWebhook returns the workspace's endpoint or NotFound (another workspace's id included).
func (h *Dashboard) findWebhook(c *fiber.Ctx) (webhookquery.Webhook, error) {
	list, err := h.d.Webhooks.Queries.ListWebhooks.Handle(c.UserContext(), dataWorkspace(c))
	if err != nil {
		return webhookquery.Webhook{}, err
	}
	for _, w := range list {
		if w.ID == c.Params("id") {
			return w, nil
		}
	}
	return webhookquery.Webhook{}, kernel.NotFound("webhook not found")
}

func (h *Dashboard) endpointPage(c *fiber.Ctx) error {
	return h.renderEndpoint(c, fiber.StatusOK, "", "", nil)
}

func (h *Dashboard) renderEndpoint(c *fiber.Ctx, status int, errText, url string, types []string) error {
	w, err := h.findWebhook(c)
	if err != nil {
		return err
	}
	if url == "" && types == nil {
		url, types = w.URL, w.Events
	}
	f := webhookquery.LogFilter{WorkspaceID: dataWorkspace(c), WebhookID: w.ID}
	recent, err := h.d.Webhooks.Queries.DeliveryLogPage.Handle(c.UserContext(), webhookquery.DeliveryLogPage{Filter: f, Page: platform.PageRequest{Limit: 5}})
	if err != nil {
		return err
	}
	f.Status = webhookquery.LogFailed
	failed, err := h.d.Webhooks.Queries.DeliveryLogPage.Handle(c.UserContext(), webhookquery.DeliveryLogPage{Filter: f, Page: platform.PageRequest{Limit: 1}})
	if err != nil {
		return err
	}
	health, err := h.d.Webhooks.Queries.EndpointHealth.Handle(c.UserContext(), webhookquery.EndpointHealth{WorkspaceID: dataWorkspace(c), WebhookID: w.ID})
	if err != nil {
		return err
	}
	d := endpointData{Webhook: w, URL: url, Types: typeBoxes(types), Recent: recent.Items, Health: newHealthData(health)}
	for _, e := range catalog.Entries {
		d.AllTypes = append(d.AllTypes, e.Type)
	}
	if len(failed.Items) == 1 {
		d.Failed = failed.Items[0]
	}
	if d.Backfill, err = h.d.Webhooks.Queries.LatestBackfill.Handle(c.UserContext(), webhookcmd.LatestBackfill{WorkspaceID: f.WorkspaceID, WebhookID: w.ID}); err != nil {
		return err
	}
	return h.render(c, status, "webhook", view{Title: "Endpoint", Nav: "webhooks", Error: errText,
		Notice: webhookNotices.of(c) + queuedNotice(c), Data: d})
}

func (h *Dashboard) endpointURL(c *fiber.Ctx, notice string) string {
	return withMode(c, Prefix+"/w/"+membershipOf(c).WorkspaceID+"/webhooks/"+c.Params("id")+"?notice="+notice)
}

func (h *Dashboard) updateWebhook(c *fiber.Ctx) error {
	url, types := formValue(c, "url"), formValues(c, "events")
	_, err := h.d.Webhooks.Commands.UpdateWebhook.Handle(c.UserContext(), webhookcmd.UpdateWebhook{
		WorkspaceID: dataWorkspace(c), WebhookID: c.Params("id"), URL: url, Events: types})
	if msg, ok := formError(err); ok {
		return h.renderEndpoint(c, fiber.StatusUnprocessableEntity, msg, url, types)
	}
	if err != nil {
		return err
	}
	return c.Redirect(h.endpointURL(c, "updated"), fiber.StatusSeeOther)
}

func (h *Dashboard) setWebhookStatus(enabled bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		_, err := h.d.Webhooks.Commands.SetWebhookStatus.Handle(c.UserContext(), webhookcmd.SetWebhookStatus{
			WorkspaceID: dataWorkspace(c), WebhookID: c.Params("id"), Enabled: enabled})
		if err != nil {
			return err
		}
		notice := "disabled"
		if enabled {
			notice = "enabled"
		}
		return c.Redirect(h.endpointURL(c, notice), fiber.StatusSeeOther)
	}
}

// rotateSecret shows the new secret in the response to the POST, once (no-store).
func (h *Dashboard) rotateSecret(c *fiber.Ctx) error {
	w, err := h.d.Webhooks.Commands.RotateSecret.Handle(c.UserContext(), webhookcmd.RotateSecret{
		WorkspaceID: dataWorkspace(c), WebhookID: c.Params("id")})
	if err != nil {
		return err
	}
	lead := "Deliveries are signed with this secret from now on."
	if w.PreviousSecretExpiresAt != nil {
		lead += " Until " + formatTime(w.PreviousSecretExpiresAt, "2006-01-02 15:04:05") +
			" UTC they also carry a signature made with the old secret, so your receiver can switch without losing a delivery."
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return h.render(c, fiber.StatusOK, "webhook_secret", view{Title: "Secret rotated", Nav: "webhooks",
		Data: secretData{Title: "Secret rotated", Lead: lead, Webhook: w.Webhook, Secret: w.SigningSecret}})
}

func (h *Dashboard) sendTestEvent(c *fiber.Ctx) error {
	sent, err := h.d.Webhooks.Commands.SendTestEvent.Handle(c.UserContext(), webhookcmd.SendTestEvent{
		WorkspaceID: dataWorkspace(c), WebhookID: c.Params("id"), Type: formValue(c, "type")})
	if msg, ok := formError(err); ok {
		return h.renderEndpoint(c, fiber.StatusUnprocessableEntity, msg, "", nil)
	}
	if err != nil {
		return err
	}
	return c.Redirect(withMode(c, Prefix+"/w/"+membershipOf(c).WorkspaceID+"/webhooks/"+c.Params("id")+"/deliveries/"+sent.DeliveryID+"?notice=test"), fiber.StatusSeeOther)
}
