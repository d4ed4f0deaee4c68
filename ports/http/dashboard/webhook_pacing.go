package dashboard

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
)

// setPacing saves the endpoint's rate limit (empty: none) and order.
func (h *Dashboard) setPacing(c *fiber.Ctx) error {
	w, err := h.findWebhook(c)
	if err != nil {
		return err
	}
	rate, ordered := 0, formValue(c, "ordered") == "true"
	if v := strings.TrimSpace(formValue(c, "rate_limit")); v != "" {
		if rate, err = strconv.Atoi(v); err != nil || rate < 1 {
			return h.renderEndpoint(c, fiber.StatusUnprocessableEntity, "Rate limit: a whole number of deliveries per second, from 1 to 1000, or empty for no limit.", "", nil)
		}
	}
	_, err = h.d.Webhooks.Commands.UpdateWebhook.Handle(c.UserContext(), webhookcmd.UpdateWebhook{
		WorkspaceID: dataWorkspace(c), WebhookID: w.ID, URL: w.URL, Events: w.Events,
		Pacing: webhookcmd.PacingChange{RateLimit: &rate, Ordered: &ordered}})
	if msg, ok := formError(err); ok {
		return h.renderEndpoint(c, fiber.StatusUnprocessableEntity, msg, "", nil)
	}
	if err != nil {
		return err
	}
	return c.Redirect(h.endpointURL(c, "paced"), fiber.StatusSeeOther)
}

// sendWaiting makes the endpoint's waiting deliveries due now and says how many.
func (h *Dashboard) sendWaiting(c *fiber.Ctx) error {
	q, err := h.d.Webhooks.Commands.SendWaiting.Handle(c.UserContext(), webhookcmd.SendWaiting{
		WorkspaceID: dataWorkspace(c), WebhookID: c.Params("id")})
	if msg, ok := formError(err); ok {
		return h.renderEndpoint(c, fiber.StatusUnprocessableEntity, msg, "", nil)
	}
	if err != nil {
		return err
	}
	return c.Redirect(withMode(c, Prefix+"/w/"+membershipOf(c).WorkspaceID+"/webhooks/"+c.Params("id")+"?queued="+strconv.Itoa(q.Queued)), fiber.StatusSeeOther)
}

// queuedNotice is the banner after "Send waiting deliveries now": the count, or nothing
// when ?queued= is not a number.
func queuedNotice(c *fiber.Ctx) string {
	n, err := strconv.Atoi(c.Query("queued"))
	switch {
	case err != nil || n < 0:
		return ""
	case n == 0:
		return "Nothing was waiting for a retry: every pending delivery is already due or in flight."
	}
	return strconv.Itoa(n) + " waiting deliveries queued: they are being sent now."
}
