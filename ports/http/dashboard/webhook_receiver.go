package dashboard

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// setReceiver saves the endpoint's static headers (one "Name: value" a line) and OAuth2
// grant; masked values keep the stored ones.
func (h *Dashboard) setReceiver(c *fiber.Ctx) error {
	rcv, err := receiverForm(c)
	if err == nil {
		_, err = h.d.Webhooks.Commands.SetReceiver.Handle(c.UserContext(), webhookcmd.SetReceiver{
			WorkspaceID: dataWorkspace(c), WebhookID: c.Params("id"), Receiver: rcv})
	}
	if msg, ok := formError(err); ok {
		return h.renderEndpoint(c, fiber.StatusUnprocessableEntity, msg, "", nil)
	}
	if err != nil {
		return err
	}
	return c.Redirect(h.endpointURL(c, "receiver"), fiber.StatusSeeOther)
}

func receiverForm(c *fiber.Ctx) (webhooks.Receiver, error) {
	var rcv webhooks.Receiver
	for _, line := range formValues(c, "header") { // one field a header: no dashboard field is multiline
		if strings.TrimSpace(line) == "" {
			continue
		}
		hd, err := webhooks.ParseHeaderLine(line)
		if err != nil {
			return rcv, err
		}
		rcv.Headers = append(rcv.Headers, hd)
	}
	if u := strings.TrimSpace(formValue(c, "token_url")); u != "" {
		rcv.Auth = &webhooks.OAuth2{TokenURL: u, ClientID: formValue(c, "client_id"), ClientSecret: formValue(c, "client_secret"),
			Scope: formValue(c, "scope")}
	}
	return rcv, nil
}

// startBackfill queues a backfill since the form's UTC time.
func (h *Dashboard) startBackfill(c *fiber.Ctx) error {
	since, err := parseFormTime(formValue(c, "since"))
	if err == nil {
		_, err = h.d.Webhooks.Commands.StartBackfill.Handle(c.UserContext(), webhookcmd.StartBackfill{
			WorkspaceID: dataWorkspace(c), WebhookID: c.Params("id"), Since: since})
	}
	if msg, ok := formError(err); ok {
		return h.renderEndpoint(c, fiber.StatusUnprocessableEntity, msg, "", nil)
	}
	if err != nil {
		return err
	}
	return c.Redirect(h.endpointURL(c, "backfill"), fiber.StatusSeeOther)
}

// parseFormTime reads a datetime-local value (UTC), with or without seconds, or RFC 3339.
func parseFormTime(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", time.RFC3339} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, kernel.Invalid("since", "since: a date and time, such as 2026-01-02T15:04")
}
