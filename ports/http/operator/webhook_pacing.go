package operator

import (
	"bytes"
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// pacingRequest is an endpoint's pacing in a create or update body: rateLimit a number
// (1..1000) sets the limit, null removes it, absent keeps it; ordered likewise.
type pacingRequest struct {
	RateLimit json.RawMessage `json:"rateLimit"`
	Ordered   *bool           `json:"ordered"`
}

// change reads the request into the command's change.
func (p pacingRequest) change() (command.PacingChange, error) {
	c := command.PacingChange{Ordered: p.Ordered}
	switch raw := bytes.TrimSpace(p.RateLimit); {
	case len(raw) == 0:
	case bytes.Equal(raw, []byte("null")):
		c.RateLimit = new(int)
	default:
		var n int
		if err := json.Unmarshal(raw, &n); err != nil || n < 1 {
			return c, kernel.Invalid("rateLimit", "rateLimit: deliveries per second, from 1 to 1000, or null for no limit")
		}
		c.RateLimit = &n
	}
	return c, nil
}

type updateWebhookRequest struct {
	URL    *string  `json:"url" validate:"omitempty,max=2048"`
	Events []string `json:"events" validate:"omitempty,min=1,max=16"`
	pacingRequest
}

// WebhookPacingRoutes: PATCH W/webhooks/{id} (url, events, rateLimit, ordered: each
// optional); POST W/webhooks/{id}/send-waiting (202, {queued}).
func WebhookPacingRoutes(app webhooks.Application, dec *web.Decoder) Routes {
	h := webhookRoutes{app: app, dec: dec}
	return Routes{
		{Method: fiber.MethodPatch, Path: "/workspaces/:org/webhooks/:id", Handlers: []fiber.Handler{h.update}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/webhooks/:id/send-waiting", Handlers: []fiber.Handler{h.sendWaiting}},
	}
}

func (h webhookRoutes) update(c *fiber.Ctx) error {
	var req updateWebhookRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	pacing, err := req.change()
	if err != nil {
		return err
	}
	ws, id := c.Params("org"), c.Params("id")
	list, err := h.app.Queries.ListWebhooks.Handle(c.UserContext(), ws)
	if err != nil {
		return err
	}
	cmd := command.UpdateWebhook{WorkspaceID: ws, WebhookID: id, Events: req.Events, Pacing: pacing}
	found := false
	for _, w := range list {
		if w.ID == id {
			found, cmd.URL = true, w.URL
			if cmd.Events == nil {
				cmd.Events = w.Events
			}
		}
	}
	if !found {
		return kernel.NotFound("webhook %s not found", id)
	}
	if req.URL != nil {
		cmd.URL = *req.URL
	}
	w, err := h.app.Commands.UpdateWebhook.Handle(c.UserContext(), cmd)
	if err != nil {
		return err
	}
	return c.JSON(w)
}

func (h webhookRoutes) sendWaiting(c *fiber.Ctx) error {
	n, err := h.app.Commands.SendWaiting.Handle(c.UserContext(), command.SendWaiting{WorkspaceID: c.Params("org"), WebhookID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(n)
}
