// Package operator is the operator API under /internal/v1, on its own listener:
// it records what happens in a workspace (so that every event type has a command
// that emits it) and manages keys. Named "operator" because Go reserves "internal".
package operator

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Prefix is where the operator API lives.
const Prefix = "/internal/v1"

// Routes is one module's share of the operator API, collected through an fx group.
type Routes []web.Route

// Register mounts all routes behind the admin bearer token (wrong tokens rate limited per
// client address); routes under a workspace answer 404 when it does not exist.
func Register(app *fiber.App, adminToken string, limiter FailedAuthLimiter, dir platform.WorkspaceDirectory, groups []Routes) {
	app.Use(Prefix, requireToken(adminToken, limiter))
	workspace := requireWorkspace(dir)
	var all []web.Route
	for _, g := range groups {
		for _, r := range g {
			r.Path = Prefix + r.Path
			if strings.Contains(r.Path, "/:org") && len(r.Handlers) > 0 {
				// Just before the endpoint's own handler, after web.Mount's text check: a
				// malformed workspace id is 422 and never reaches the database.
				r.Handlers = append(r.Handlers[:len(r.Handlers)-1:len(r.Handlers)-1], workspace.then(r.Handlers[len(r.Handlers)-1]))
			}
			all = append(all, r)
		}
	}
	web.Mount(app, all)
}

// created answers 201 with the new resource.
func created(c *fiber.Ctx, v any) error { return c.Status(fiber.StatusCreated).JSON(v) }
