package web

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/gofiber/fiber/v2"
)

// UnavailableRetryAfter is the Retry-After (seconds) of a 500 caused by a store that did
// not answer: long enough for a database restart or a failover to be under way, short
// enough that a client's retry lands soon after it is back.
const UnavailableRetryAfter = 5

// RequestDeadline bounds the work of one request, as ReadTimeout bounds its arrival: a
// database that stops answering without closing its connections (a network partition)
// ends the request with 500 internal_error and Retry-After instead of holding it.
const RequestDeadline = 15 * time.Second

// Deadline gives each request's context RequestDeadline.
func Deadline() fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx := newLazyDeadline(c.UserContext(), RequestDeadline) // no timer unless waited on
		defer ctx.stop()
		c.SetUserContext(ctx)
		return c.Next()
	}
}

// unavailable tells whether a fault is a store that did not answer (refused or dropped
// connection, a timeout, a server shutting down or starting up), which a retry after a few
// seconds may get past, rather than a bug. Drivers wrap these with %w (pgconn.ConnectError,
// go-redis), so the standard errors show; PostgreSQL's own refusals are recognised by their
// SQLSTATE class (08 connection exception, 57 operator intervention: "the database system
// is starting up", "terminating connection due to administrator command"; 53300 too many
// connections), and pgx's "conn closed" by its SafeToRetry (the statement was never sent).
func unavailable(err error) bool {
	var coded interface{ SQLState() string }
	if errors.As(err, &coded) {
		s := coded.SQLState()
		return strings.HasPrefix(s, "08") || strings.HasPrefix(s, "57") || s == "53300"
	}
	var retryable interface{ SafeToRetry() bool }
	if errors.As(err, &retryable) && retryable.SafeToRetry() {
		return true
	}
	var netErr net.Error
	return errors.As(err, &netErr) ||
		errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, context.DeadlineExceeded)
}

// internalFor is the 500 for a fault: with Retry-After when a store was away.
func internalFor(err error) *Problem {
	p := Internal()
	if unavailable(err) {
		p.retryAfterHeader = UnavailableRetryAfter // the header only: retryAfterSeconds belongs to rate_limited
		p.Message = "internal error: a store this service needs did not answer; retry after the Retry-After delay"
	}
	return p
}
