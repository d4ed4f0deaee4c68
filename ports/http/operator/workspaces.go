package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/workspaces"
	"github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type createWorkspaceRequest struct {
	Name       string `json:"name" validate:"required,max=200"`
	OwnerEmail string `json:"ownerEmail" validate:"required,email,max=254"`
}

// WorkspaceRoutes: POST /workspaces, GET /workspaces/{org}, POST /workspaces/{org}/sandbox
// (opens and seeds the paired sandbox on first call: 201; then 200 with the same one).
func WorkspaceRoutes(app workspaces.Application, dec *web.Decoder) Routes {
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			var req createWorkspaceRequest
			if err := dec.Body(c, &req); err != nil {
				return err
			}
			w, err := app.Commands.CreateWorkspace.Handle(c.UserContext(), command.CreateWorkspace{Name: req.Name, OwnerEmail: req.OwnerEmail})
			if err != nil {
				return err
			}
			return created(c, w)
		}}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			w, err := app.Queries.GetWorkspace.Handle(c.UserContext(), c.Params("org"))
			if err != nil {
				return err
			}
			return c.JSON(w)
		}}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/sandbox", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			sb, err := app.Commands.OpenSandbox.Handle(c.UserContext(), command.OpenSandbox{WorkspaceID: c.Params("org")})
			if err != nil {
				return err
			}
			if sb.Created {
				return created(c, sb.Workspace)
			}
			return c.JSON(sb.Workspace)
		}}},
	}
}
