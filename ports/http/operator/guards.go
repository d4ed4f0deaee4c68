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

// FailedAuthLimiter counts failed authentications per client address: the operator
// listener's own budget (ratelimit.Limiter.FailedAuth(ratelimit.OperatorListener)), the
// same allowance as the public API's but apart from it, so that wrong API keys from an
// address never lock the operator out.
type FailedAuthLimiter interface {
	Blocked(ip string) (ratelimit.Decision, bool)
	Take(ctx context.Context, ip string) (ratelimit.Decision, error)
}

// requireToken admits requests carrying the admin token. The token is checked first: a
// right one is always admitted and counts nothing (it is 32+ characters compared in
// constant time, so a blocked client cannot learn anything from it). Wrong or missing
// tokens are counted against the client address (same headers, 429 envelope).
func requireToken(token string, limiter FailedAuthLimiter) fiber.Handler {
	want := []byte(token)
	return func(c *fiber.Ctx) error {
		ip := web.ClientIP(c)
		header, repeated := web.OneAuthorization(c)
		scheme, got, ok := strings.Cut(header, " ")
		if repeated == nil && ok && strings.EqualFold(scheme, "Bearer") && len(want) > 0 &&
			subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) == 1 {
			// The audit log names the operator API and the caller's address.
			c.SetUserContext(platform.WithActor(c.UserContext(), platform.Actor{Name: "operator API", Address: ip}))
			return c.Next()
		}
		if d, blocked := limiter.Blocked(ip); blocked {
			web.SetRateHeaders(c, d)
			return web.RateLimited(d)
		}
		d, err := limiter.Take(c.UserContext(), ip)
		if err != nil {
			return err
		}
		web.SetRateHeaders(c, d)
		if !d.Allowed {
			return web.RateLimited(d)
		}
		if repeated != nil {
			return repeated
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
