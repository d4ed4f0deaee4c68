package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type createKeyRequest struct {
	Name      string   `json:"name" validate:"required,max=100"`
	Scopes    []string `json:"scopes" validate:"required,min=1,max=7"` // keys.AllScopes
	PerMinute int      `json:"perMinute" validate:"gte=0"`
	PerDay    int      `json:"perDay" validate:"gte=0"`
}

// KeyRoutes: POST and GET W/keys, DELETE W/keys/{id}.
func KeyRoutes(app keys.Application, dec *web.Decoder) Routes {
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/keys", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			var req createKeyRequest
			if err := dec.Body(c, &req); err != nil {
				return err
			}
			k, err := app.Commands.CreateKey.Handle(c.UserContext(), command.CreateKey{
				WorkspaceID: c.Params("org"), Name: req.Name, Scopes: req.Scopes, PerMinute: req.PerMinute, PerDay: req.PerDay,
			})
			if err != nil {
				return err
			}
			return created(c, k)
		}}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/keys", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			list, err := app.Queries.ListKeys.Handle(c.UserContext(), c.Params("org"))
			if err != nil {
				return err
			}
			return c.JSON(fiber.Map{"data": list})
		}}},
		{Method: fiber.MethodDelete, Path: "/workspaces/:org/keys/:id", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			k, err := app.Commands.RevokeKey.Handle(c.UserContext(), command.RevokeKey{WorkspaceID: c.Params("org"), KeyID: c.Params("id")})
			if err != nil {
				return err
			}
			return c.JSON(k)
		}}},
	}
}
