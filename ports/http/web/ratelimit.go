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
// The numbers are formatted into one stack buffer and copied by the header: no
// allocation per request.
func SetRateHeaders(c *fiber.Ctx, d ratelimit.Decision) {
	h := &c.Response().Header
	var buf [20]byte
	h.SetBytesV(HeaderRateLimit, strconv.AppendInt(buf[:0], int64(d.Minute.Limit), 10))
	h.SetBytesV(HeaderRateRemaining, strconv.AppendInt(buf[:0], int64(d.Minute.Remaining), 10))
	h.SetBytesV(HeaderRateReset, strconv.AppendInt(buf[:0], d.Minute.Reset.Unix(), 10))
	h.SetBytesV(HeaderRateDailyLimit, strconv.AppendInt(buf[:0], int64(d.Day.Limit), 10))
	h.SetBytesV(HeaderRateDailyRemaining, strconv.AppendInt(buf[:0], int64(d.Day.Remaining), 10))
	h.SetBytesV(HeaderRateDailyReset, strconv.AppendInt(buf[:0], d.Day.Reset.Unix(), 10))
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
