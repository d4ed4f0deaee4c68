package operator

import (
	"context"
	"crypto/subtle"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// FailedAuthLimiter counts failed authentications per client address: the public API's
// limiter, so that wrong operator tokens cost what wrong keys cost.
type FailedAuthLimiter interface {
	FailedAuthBlocked(ip string) (ratelimit.Decision, bool)
	TakeFailedAuth(ctx context.Context, ip string) (ratelimit.Decision, error)
}

// requireToken admits requests carrying the admin token. Wrong or missing tokens are
// counted against the client address like failed API keys (same headers, 429 envelope);
// a client that used its allowance is refused before its token is looked at.
func requireToken(token string, limiter FailedAuthLimiter) fiber.Handler {
	want := []byte(token)
	return func(c *fiber.Ctx) error {
		ip := c.IP()
		if d, blocked := limiter.FailedAuthBlocked(ip); blocked {
			web.SetRateHeaders(c, d)
			return web.RateLimited(d)
		}
		scheme, got, ok := strings.Cut(c.Get(fiber.HeaderAuthorization), " ")
		if ok && strings.EqualFold(scheme, "Bearer") && len(want) > 0 &&
			subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) == 1 {
			// The audit log names the operator API and the caller's address.
			c.SetUserContext(platform.WithActor(c.UserContext(), platform.Actor{Name: "operator API", Address: ip}))
			return c.Next()
		}
		d, err := limiter.TakeFailedAuth(c.UserContext(), ip)
		if err != nil {
			return err
		}
		web.SetRateHeaders(c, d)
		if !d.Allowed {
			return web.RateLimited(d)
		}
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="creatorapi-operator"`)
		return web.Unauthorized("operator token missing or wrong: send Authorization: Bearer <CREATORAPI_ADMIN_TOKEN>")
	}
}

// requireWorkspace answers 404 not_found for a workspace that does not exist, before
// the route reads or writes anything under it.
func requireWorkspace(dir platform.WorkspaceDirectory) workspaceGuard {
	return workspaceGuard{dir}
}

type workspaceGuard struct{ dir platform.WorkspaceDirectory }

// then runs h once the route's workspace is known to exist.
func (g workspaceGuard) then(h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := platform.RequireWorkspace(c.UserContext(), g.dir, c.Params("org")); err != nil {
			return err
		}
		return h(c)
	}
}
