package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
)

// WebhookHealthRoutes: GET W/webhooks/{id}/health, the endpoint's attempts, success rate,
// latency p50/p95 and last error over the last 24 hours and 7 days, with its last 24
// hours hour by hour (docs/webhook-receivers.md, "Health").
func WebhookHealthRoutes(app webhooks.Application) Routes {
	return Routes{
		{Method: fiber.MethodGet, Path: "/workspaces/:org/webhooks/:id/health", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			h, err := app.Queries.EndpointHealth.Handle(c.UserContext(), query.EndpointHealth{WorkspaceID: c.Params("org"), WebhookID: c.Params("id")})
			if err != nil {
				return err
			}
			return c.JSON(h)
		}}},
	}
}
