// Package web holds what both HTTP APIs share: the fiber app with safe defaults, the
// error envelope, request ids, strict JSON decoding and the route table helper.
package web

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Error codes clients branch on: the specification's six, and one for a wrong method.
const (
	CodeUnauthorized     = "unauthorized"
	CodeForbidden        = "forbidden"
	CodeNotFound         = "not_found"
	CodeRateLimited      = "rate_limited"
	CodeInvalidRequest   = "invalid_request"
	CodeInternal         = "internal_error"
	CodeMethodNotAllowed = "method_not_allowed"
)

// Problem is an error with its place in the envelope.
type Problem struct {
	Status            int    `json:"-"`
	Code              string `json:"code"`
	Message           string `json:"message"`
	Param             string `json:"param,omitempty"`
	RetryAfterSeconds *int   `json:"retryAfterSeconds,omitempty"`
	// Reason tells apart, for clients to branch on, a failure the code alone does not
	// (the events feed's expired cursor: "cursor_expired").
	Reason           string `json:"reason,omitempty"`
	retryAfterHeader int    // Retry-After without the body field (internal_error: unavailable.go)
}

func (p *Problem) Error() string { return p.Code + ": " + p.Message }

// Envelope is the body of every error response.
type Envelope struct {
	Error *Problem `json:"error"`
}

// Invalid is a 422 naming the offending parameter or field.
func Invalid(param, format string, args ...any) *Problem {
	return &Problem{Status: http.StatusUnprocessableEntity, Code: CodeInvalidRequest, Param: param, Message: fmt.Sprintf(format, args...)}
}

// NotFound is a 404.
func NotFound(message string) *Problem {
	return &Problem{Status: http.StatusNotFound, Code: CodeNotFound, Message: message}
}

// Unauthorized is a 401.
func Unauthorized(message string) *Problem {
	return &Problem{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: message}
}

// Forbidden is a 403.
func Forbidden(message string) *Problem {
	return &Problem{Status: http.StatusForbidden, Code: CodeForbidden, Message: message}
}

// Internal is the 500 shown to clients: it never carries the cause.
func Internal() *Problem {
	return &Problem{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error; retry with exponential backoff"}
}

// ProblemOf maps any error to the problem shown to the client; ok is false for faults
// (the caller logs those, the client only sees internal_error).
func ProblemOf(err error) (p *Problem, ok bool) {
	if errors.As(err, &p) {
		return p, true
	}
	var ke *kernel.Error
	if errors.As(err, &ke) {
		switch ke.Kind {
		case kernel.KindInvalid:
			return &Problem{Status: http.StatusUnprocessableEntity, Code: CodeInvalidRequest, Param: ke.Field, Message: ke.Error()}, true
		case kernel.KindNotFound:
			return NotFound(ke.Error()), true
		case kernel.KindUnauthenticated:
			return Unauthorized(ke.Error()), true
		case kernel.KindForbidden:
			return Forbidden(ke.Error()), true
		}
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fiberProblem(fe), fe.Code < 500
	}
	return internalFor(err), false
}

func fiberProblem(fe *fiber.Error) *Problem {
	switch fe.Code {
	case fiber.StatusNotFound:
		return NotFound("no such endpoint")
	case fiber.StatusMethodNotAllowed:
		return &Problem{Status: fe.Code, Code: CodeMethodNotAllowed, Message: "method not allowed on this endpoint"}
	case fiber.StatusRequestEntityTooLarge:
		return Invalid("body", "request body exceeds %d bytes", BodyLimit)
	case fiber.StatusRequestHeaderFieldsTooLarge:
		return &Problem{Status: fe.Code, Code: CodeInvalidRequest, Param: "headers", Message: "request headers are too large"}
	case fiber.StatusBadRequest: // the HTTP parser refused the request; the connection closes
		return &Problem{Status: fe.Code, Code: CodeInvalidRequest, Message: "malformed HTTP request"}
	case fiber.StatusRequestTimeout: // the request did not arrive within the read timeout
		return &Problem{Status: fe.Code, Code: CodeInvalidRequest, Message: "request not received in time; the connection closes"}
	}
	if fe.Code >= 500 {
		return Internal()
	}
	// Other client errors from the HTTP layer (malformed requests) are validation failures.
	return Invalid("", "malformed request")
}
