package v1

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// RateLimiter applies the quotas of keys.
type RateLimiter interface {
	TakeKey(ctx context.Context, keyID string, q ratelimit.Quota) (ratelimit.Decision, error)
}

// FailedAuthBudget is the public listener's allowance of failed authentications per
// client address (ratelimit.Limiter.FailedAuth(ratelimit.PublicListener)).
type FailedAuthBudget interface {
	AnyBlocked() bool
	Blocked(ip string) (ratelimit.Decision, bool)
	Take(ctx context.Context, ip string) (ratelimit.Decision, error)
}

// KeyRateLimit is the guard after authentication: it counts the request against the
// key's quota or refuses it with 429 before routing, so every later answer (404, 405,
// 403, 422, 500...) carries the key's headers and has consumed quota.
func KeyRateLimit(l RateLimiter) fiber.Handler {
	return func(c *fiber.Ctx) error {
		p := PrincipalOf(c)
		d, err := l.TakeKey(c.UserContext(), p.KeyID, ratelimit.Quota{PerMinute: p.Quota.PerMinute, PerDay: p.Quota.PerDay})
		if err != nil {
			return err
		}
		web.SetRateHeaders(c, d)
		if !d.Allowed {
			return web.RateLimited(d)
		}
		return c.Next()
	}
}

// FailedAuthRateLimit runs before authentication and counts the requests that fail
// it against the client address, with the same headers. A client that has used its
// allowance is refused before its key is looked at, so keys cannot be guessed at speed.
func FailedAuthRateLimit(l FailedAuthBudget) fiber.Handler {
	return func(c *fiber.Ctx) error {
		// The client's address is named only when a client is blocked or this request
		// failed: an authenticated request on an instance blocking nobody never needs it.
		if l.AnyBlocked() {
			if d, blocked := l.Blocked(web.ClientIP(c)); blocked {
				web.SetRateHeaders(c, d)
				return web.RateLimited(d)
			}
		}
		err := c.Next()
		if PrincipalOf(c).KeyID != "" {
			return err // authenticated: the key's guard has counted it
		}
		d, lerr := l.Take(c.UserContext(), web.ClientIP(c))
		if lerr != nil {
			return lerr
		}
		web.SetRateHeaders(c, d)
		if !d.Allowed {
			c.Response().Header.Del(fiber.HeaderWWWAuthenticate)
			return web.RateLimited(d)
		}
		return err
	}
}
