package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// SetRateHeaders writes the specification's rate-limit headers: the operator API answers
// wrong tokens with the same headers as the public API answers wrong keys.
func SetRateHeaders(c *fiber.Ctx, d ratelimit.Decision) { setRateHeaders(c, d) }

// RateLimited is the 429 rate_limited problem of an exhausted decision.
func RateLimited(d ratelimit.Decision) *web.Problem { return rateLimited(d) }
