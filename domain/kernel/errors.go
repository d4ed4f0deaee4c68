// Package kernel is the small shared kernel of the domain: the typed errors every
// module returns so that ports can map them to the public error envelope without
// knowing the module that raised them.
package kernel

import (
	"errors"
	"fmt"
)

// Kind classifies a domain or application failure.
type Kind int

const (
	// KindInvalid: the input broke a rule (maps to 422 invalid_request).
	KindInvalid Kind = iota + 1
	// KindNotFound: the subject does not resolve in the caller's workspace (404 not_found).
	KindNotFound
	// KindUnauthenticated: credentials are missing, malformed, unknown or revoked (401).
	KindUnauthenticated
	// KindForbidden: authenticated but not allowed (403).
	KindForbidden
)

// Error is a failure a caller can act on. Field names the offending input, when there is one.
type Error struct {
	Kind    Kind
	Field   string
	Message string
}

func (e *Error) Error() string {
	if e.Field != "" && e.Message == "" {
		return e.Field + " is invalid"
	}
	return e.Message
}

// Invalid reports input that broke a rule; message should name the field.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

// NotFound reports a subject that does not resolve in the workspace.
func NotFound(format string, args ...any) *Error {
	return &Error{Kind: KindNotFound, Message: fmt.Sprintf(format, args...)}
}

// Unauthenticated reports missing or bad credentials.
func Unauthenticated(message string) *Error {
	return &Error{Kind: KindUnauthenticated, Message: message}
}

// Forbidden reports a caller lacking a permission.
func Forbidden(message string) *Error {
	return &Error{Kind: KindForbidden, Message: message}
}

// KindOf returns the kind of err, or 0 when err is not a kernel error.
func KindOf(err error) Kind {
	if err == nil {
		return 0 // before errors.As, whose target would be allocated on every call
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// IsNotFound tells whether err is a not-found failure.
func IsNotFound(err error) bool { return KindOf(err) == KindNotFound }
