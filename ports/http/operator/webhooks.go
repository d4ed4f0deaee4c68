package operator

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

type createWebhookRequest struct {
	URL    string   `json:"url" validate:"required,max=2048"`
	Events []string `json:"events" validate:"required,min=1,max=16"`
	pacingRequest
	receiverRequest
	BackfillSince *time.Time `json:"backfillSince"`
}

type recoverRequest struct {
	Since *time.Time `json:"since" validate:"required"`
	Until *time.Time `json:"until"`
}

// WebhookRoutes: POST, GET W/webhooks; POST W/webhooks/{id}/disable, /enable,
// /rotate-secret, /recover; GET W/webhooks/{id}/deliveries; POST W/deliveries/{id}/resend.
func WebhookRoutes(app webhooks.Application, dec *web.Decoder, cursors *web.Cursors) Routes {
	h := webhookRoutes{app: app, dec: dec, cursors: cursors}
	return append(receiverRoutes(h), Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/webhooks", Handlers: []fiber.Handler{h.create}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/webhooks", Handlers: []fiber.Handler{h.list}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/webhooks/:id/disable", Handlers: []fiber.Handler{h.setStatus(false)}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/webhooks/:id/enable", Handlers: []fiber.Handler{h.setStatus(true)}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/webhooks/:id/rotate-secret", Handlers: []fiber.Handler{h.rotate}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/webhooks/:id/recover", Handlers: []fiber.Handler{h.recover}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/webhooks/:id/deliveries", Handlers: []fiber.Handler{h.deliveries}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/deliveries/:id/resend", Handlers: []fiber.Handler{h.resend}},
	}...)
}

type webhookRoutes struct {
	app     webhooks.Application
	dec     *web.Decoder
	cursors *web.Cursors
}

func (h webhookRoutes) create(c *fiber.Ctx) error {
	var req createWebhookRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	pacing, err := req.change()
	if err != nil {
		return err
	}
	w, err := h.app.Commands.CreateWebhook.Handle(c.UserContext(), command.CreateWebhook{
		WorkspaceID: c.Params("org"), URL: req.URL, Events: req.Events, Pacing: pacing,
		Receiver: req.receiver(), BackfillSince: utc(req.BackfillSince),
	})
	if err != nil {
		return err
	}
	return created(c, w)
}

func (h webhookRoutes) list(c *fiber.Ctx) error {
	list, err := h.app.Queries.ListWebhooks.Handle(c.UserContext(), c.Params("org"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": list})
}

func (h webhookRoutes) setStatus(enabled bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		w, err := h.app.Commands.SetWebhookStatus.Handle(c.UserContext(), command.SetWebhookStatus{
			WorkspaceID: c.Params("org"), WebhookID: c.Params("id"), Enabled: enabled,
		})
		if err != nil {
			return err
		}
		return c.JSON(w)
	}
}

func (h webhookRoutes) rotate(c *fiber.Ctx) error {
	w, err := h.app.Commands.RotateSecret.Handle(c.UserContext(), command.RotateSecret{WorkspaceID: c.Params("org"), WebhookID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(w)
}

func (h webhookRoutes) recover(c *fiber.Ctx) error {
	var req recoverRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	n, err := h.app.Commands.RecoverDeliveries.Handle(c.UserContext(), command.RecoverDeliveries{
		WorkspaceID: c.Params("org"), WebhookID: c.Params("id"), Since: req.Since.UTC(), Until: utc(req.Until),
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(n)
}

func (h webhookRoutes) deliveries(c *fiber.Ctx) error {
	ws, id, status := c.Params("org"), c.Params("id"), c.Query("status")
	scope := web.Scope{List: "webhook-deliveries", WorkspaceID: ws, Filters: id + "\x00" + status}
	page, err := web.PageRequest(c, h.cursors, scope, "status")
	if err != nil {
		return err
	}
	out, err := h.app.Queries.ListDeliveries.Handle(c.UserContext(), query.ListDeliveries{
		WorkspaceID: ws, WebhookID: id, Status: status, Page: page,
	})
	if err != nil {
		return err
	}
	return web.SendPage(c, h.cursors, scope, out)
}

func (h webhookRoutes) resend(c *fiber.Ctx) error {
	d, err := h.app.Commands.ResendDelivery.Handle(c.UserContext(), command.ResendDelivery{WorkspaceID: c.Params("org"), DeliveryID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(d)
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
