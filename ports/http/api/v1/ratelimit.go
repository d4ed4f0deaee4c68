package v1

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// The specification's rate-limit headers; Retry-After is set by web.WriteProblem.
const (
	HeaderRateLimit          = "X-RateLimit-Limit"
	HeaderRateRemaining      = "X-RateLimit-Remaining"
	HeaderRateReset          = "X-RateLimit-Reset"
	HeaderRateDailyLimit     = "X-RateLimit-Daily-Limit"
	HeaderRateDailyRemaining = "X-RateLimit-Daily-Remaining"
	HeaderRateDailyReset     = "X-RateLimit-Daily-Reset"
)

// RateLimiter applies the quotas of keys and of clients failing authentication.
type RateLimiter interface {
	TakeKey(ctx context.Context, keyID string, q ratelimit.Quota) (ratelimit.Decision, error)
	FailedAuthBlocked(ip string) (ratelimit.Decision, bool)
	TakeFailedAuth(ctx context.Context, ip string) (ratelimit.Decision, error)
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
		setRateHeaders(c, d)
		if !d.Allowed {
			return rateLimited(d)
		}
		return c.Next()
	}
}

// FailedAuthRateLimit runs before authentication and counts the requests that fail
// it against the client address, with the same headers. A client that has used its
// allowance is refused before its key is looked at, so keys cannot be guessed at speed.
func FailedAuthRateLimit(l RateLimiter) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ip := c.IP()
		if d, blocked := l.FailedAuthBlocked(ip); blocked {
			setRateHeaders(c, d)
			return rateLimited(d)
		}
		err := c.Next()
		if PrincipalOf(c).KeyID != "" {
			return err // authenticated: the key's guard has counted it
		}
		d, lerr := l.TakeFailedAuth(c.UserContext(), ip)
		if lerr != nil {
			return lerr
		}
		setRateHeaders(c, d)
		if !d.Allowed {
			c.Response().Header.Del(fiber.HeaderWWWAuthenticate)
			return rateLimited(d)
		}
		return err
	}
}

func setRateHeaders(c *fiber.Ctx, d ratelimit.Decision) {
	h := &c.Response().Header
	h.Set(HeaderRateLimit, strconv.Itoa(d.Minute.Limit))
	h.Set(HeaderRateRemaining, strconv.Itoa(d.Minute.Remaining))
	h.Set(HeaderRateReset, strconv.FormatInt(d.Minute.Reset.Unix(), 10))
	h.Set(HeaderRateDailyLimit, strconv.Itoa(d.Day.Limit))
	h.Set(HeaderRateDailyRemaining, strconv.Itoa(d.Day.Remaining))
	h.Set(HeaderRateDailyReset, strconv.FormatInt(d.Day.Reset.Unix(), 10))
}

func rateLimited(d ratelimit.Decision) *web.Problem {
	wait := d.RetryAfter
	msg := "per-minute rate limit exceeded; retry after " + strconv.Itoa(wait) + " seconds"
	if d.Day.Remaining == 0 {
		msg = "daily rate limit exceeded; retry after " + strconv.Itoa(wait) + " seconds"
	}
	return &web.Problem{Status: http.StatusTooManyRequests, Code: web.CodeRateLimited, Message: msg, RetryAfterSeconds: &wait}
}
