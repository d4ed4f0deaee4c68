// Package operator is the operator API under /internal/v1, on its own listener:
// it records what happens in a workspace (so that every event type has a command
// that emits it) and manages keys. Named "operator" because Go reserves "internal".
package operator

import (
	"crypto/subtle"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Prefix is where the operator API lives.
const Prefix = "/internal/v1"

// Routes is one module's share of the operator API, collected through an fx group.
type Routes []web.Route

// Register mounts all routes behind the admin bearer token.
func Register(app *fiber.App, adminToken string, groups []Routes) {
	app.Use(Prefix, requireToken(adminToken))
	var all []web.Route
	for _, g := range groups {
		for _, r := range g {
			r.Path = Prefix + r.Path
			all = append(all, r)
		}
	}
	web.Mount(app, all)
}

func requireToken(token string) fiber.Handler {
	want := []byte(token)
	return func(c *fiber.Ctx) error {
		scheme, got, ok := strings.Cut(c.Get(fiber.HeaderAuthorization), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || len(want) == 0 ||
			subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="creatorapi-operator"`)
			return web.Unauthorized("operator token missing or wrong: send Authorization: Bearer <CREATORAPI_ADMIN_TOKEN>")
		}
		// The audit log names the operator API and the caller's address.
		c.SetUserContext(platform.WithActor(c.UserContext(), platform.Actor{Name: "operator API", Address: c.IP()}))
		return c.Next()
	}
}

// created answers 201 with the new resource.
func created(c *fiber.Ctx, v any) error { return c.Status(fiber.StatusCreated).JSON(v) }
