package operator

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// authRequest is an endpoint's authentication to its receiver beyond the signature.
type authRequest struct {
	Type         string `json:"type" validate:"required,oneof=oauth2_client_credentials"`
	TokenURL     string `json:"tokenUrl" validate:"required,max=2048"`
	ClientID     string `json:"clientId" validate:"required,max=256"`
	ClientSecret string `json:"clientSecret" validate:"required,max=1024"`
	Scope        string `json:"scope" validate:"max=1024"`
}

// receiverRequest is the receiver part of a create, or the whole of PUT .../receiver.
type receiverRequest struct {
	Headers []webhooks.Header `json:"headers"`
	Auth    *authRequest      `json:"auth"`
}

func (r receiverRequest) receiver() webhooks.Receiver {
	out := webhooks.Receiver{Headers: r.Headers}
	if r.Auth != nil {
		out.Auth = &webhooks.OAuth2{TokenURL: r.Auth.TokenURL, ClientID: r.Auth.ClientID, ClientSecret: r.Auth.ClientSecret, Scope: r.Auth.Scope}
	}
	return out
}

type backfillRequest struct {
	Since *time.Time `json:"since" validate:"required"`
}

// receiverRoutes: PUT W/webhooks/{id}/receiver (headers and auth, replaced; a masked
// value keeps the stored one), POST W/webhooks/{id}/backfill {since} (202), GET
// W/webhooks/{id}/backfill (the newest backfill).
func receiverRoutes(h webhookRoutes) Routes {
	return Routes{
		{Method: fiber.MethodPut, Path: "/workspaces/:org/webhooks/:id/receiver", Handlers: []fiber.Handler{h.setReceiver}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/webhooks/:id/backfill", Handlers: []fiber.Handler{h.startBackfill}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/webhooks/:id/backfill", Handlers: []fiber.Handler{h.latestBackfill}},
	}
}

func (h webhookRoutes) setReceiver(c *fiber.Ctx) error {
	var req receiverRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	w, err := h.app.Commands.SetReceiver.Handle(c.UserContext(), command.SetReceiver{
		WorkspaceID: c.Params("org"), WebhookID: c.Params("id"), Receiver: req.receiver()})
	if err != nil {
		return err
	}
	return c.JSON(w)
}

func (h webhookRoutes) startBackfill(c *fiber.Ctx) error {
	var req backfillRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	b, err := h.app.Commands.StartBackfill.Handle(c.UserContext(), command.StartBackfill{
		WorkspaceID: c.Params("org"), WebhookID: c.Params("id"), Since: req.Since.UTC()})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(b)
}

func (h webhookRoutes) latestBackfill(c *fiber.Ctx) error {
	b, err := h.app.Queries.LatestBackfill.Handle(c.UserContext(), command.LatestBackfill{WorkspaceID: c.Params("org"), WebhookID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(b)
}
