// Package v1 is the public REST API under /api/v1: it decodes and validates requests,
// calls application handlers and maps their results to the contract.
package v1

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Authenticator turns a bearer token into the calling principal.
type Authenticator interface {
	Handle(ctx context.Context, bearer string) (query.Principal, error)
}

type principalKey struct{}

// Authenticate refuses requests without a valid, unrevoked key (401) before anything else.
func Authenticate(auth Authenticator) fiber.Handler {
	return func(c *fiber.Ctx) error {
		header, err := web.OneAuthorization(c)
		if err != nil {
			return err
		}
		if header == "" {
			return unauthorized(c, web.Unauthorized("missing bearer token: send Authorization: Bearer <API_KEY>"))
		}
		scheme, token, ok := strings.Cut(header, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return unauthorized(c, web.Unauthorized("malformed Authorization header: expected Bearer <API_KEY>"))
		}
		p, err := auth.Handle(c.UserContext(), strings.TrimSpace(token))
		if err != nil {
			return unauthorized(c, err)
		}
		c.Locals(principalKey{}, p)
		return c.Next()
	}
}

func unauthorized(c *fiber.Ctx, err error) error {
	c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="creatorapi"`)
	return err
}

// PrincipalOf returns the caller authenticated by Authenticate.
func PrincipalOf(c *fiber.Ctx) query.Principal {
	p, _ := c.Locals(principalKey{}).(query.Principal)
	return p
}

// RequireScope refuses a key that lacks scope (403).
func RequireScope(scope keys.Scope) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if !PrincipalOf(c).Allows(scope) {
			return web.Forbidden("this API key lacks the " + string(scope) + " scope")
		}
		return c.Next()
	}
}
