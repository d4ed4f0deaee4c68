package web

import (
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// The specification's rate-limit headers; Retry-After is set by WriteProblem.
const (
	HeaderRateLimit          = "X-RateLimit-Limit"
	HeaderRateRemaining      = "X-RateLimit-Remaining"
	HeaderRateReset          = "X-RateLimit-Reset"
	HeaderRateDailyLimit     = "X-RateLimit-Daily-Limit"
	HeaderRateDailyRemaining = "X-RateLimit-Daily-Remaining"
	HeaderRateDailyReset     = "X-RateLimit-Daily-Reset"
)

// SetRateHeaders writes the specification's rate-limit headers of a decision: the public
// API on every response, the operator API on wrong tokens (counted like wrong keys).
func SetRateHeaders(c *fiber.Ctx, d ratelimit.Decision) {
	h := &c.Response().Header
	h.Set(HeaderRateLimit, strconv.Itoa(d.Minute.Limit))
	h.Set(HeaderRateRemaining, strconv.Itoa(d.Minute.Remaining))
	h.Set(HeaderRateReset, strconv.FormatInt(d.Minute.Reset.Unix(), 10))
	h.Set(HeaderRateDailyLimit, strconv.Itoa(d.Day.Limit))
	h.Set(HeaderRateDailyRemaining, strconv.Itoa(d.Day.Remaining))
	h.Set(HeaderRateDailyReset, strconv.FormatInt(d.Day.Reset.Unix(), 10))
}

// RateLimited is the 429 rate_limited problem of an exhausted decision.
func RateLimited(d ratelimit.Decision) *Problem {
	wait := d.RetryAfter
	msg := "per-minute rate limit exceeded; retry after " + strconv.Itoa(wait) + " seconds"
	if d.Day.Remaining == 0 {
		msg = "daily rate limit exceeded; retry after " + strconv.Itoa(wait) + " seconds"
	}
	return &Problem{Status: http.StatusTooManyRequests, Code: CodeRateLimited, Message: msg, RetryAfterSeconds: &wait}
}
