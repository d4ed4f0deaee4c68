package web

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
)

// HeaderRequestID is echoed when the client sent a sane one, generated otherwise.
const HeaderRequestID = "X-Request-Id"

// RequestID sets X-Request-Id on every response, before anything can fail.
func RequestID() fiber.Handler {
	return func(c *fiber.Ctx) error {
		id := c.Get(HeaderRequestID)
		if !validRequestID(id) {
			id = newRequestID()
		}
		c.Set(HeaderRequestID, id)
		c.SetUserContext(platform.WithRequestID(c.UserContext(), id)) // use cases log it
		return c.Next()
	}
}

// RequestIDOf returns the request's id (from its response header, where RequestID put it).
func RequestIDOf(c *fiber.Ctx) string {
	return string(c.Response().Header.Peek(HeaderRequestID))
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		b := id[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.' || b == ':') {
			return false
		}
	}
	return true
}

// newRequestID is "req_" and 24 hex digits, built in one allocation.
func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	var id [4 + 24]byte
	copy(id[:], "req_")
	hex.Encode(id[4:], b[:])
	return string(id[:])
}

func itoa(n int) string { return strconv.Itoa(n) }
