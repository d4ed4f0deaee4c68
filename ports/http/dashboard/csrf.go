package dashboard

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
)

var csrfRefused = fiber.NewError(fiber.StatusForbidden, "This form has expired or did not come from this site. Go back, reload the page and try again.")

// sameToken compares a token read from the form body with the expected one in
// constant time; an empty token never matches.
func sameToken(got, want string) bool {
	return got != "" && want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// csrfKeyBytes is the least key length the anonymous tokens accept.
const csrfKeyBytes = 32

// anonymousTokens mints and verifies the double-submit token of the forms shown
// before sign-in: nonce "." HMAC-SHA256(key, nonce). Only the service (any instance
// with the same master key) makes a value it accepts, so a cookie planted on a shared
// parent domain, where cookies are not __Host-, cannot carry a token of the attacker's.
type anonymousTokens struct{ key []byte }

func newAnonymousTokens(key []byte) (anonymousTokens, error) {
	if len(key) < csrfKeyBytes {
		return anonymousTokens{}, fmt.Errorf("dashboard: the CSRF key has %d bytes, want at least %d", len(key), csrfKeyBytes)
	}
	return anonymousTokens{key: key}, nil
}

// mint makes a token from a fresh nonce (crypto/rand.Read never fails since Go 1.24).
func (a anonymousTokens) mint() string {
	nonce := make([]byte, 32)
	_, _ = rand.Read(nonce)
	n := base64.RawURLEncoding.EncodeToString(nonce)
	return n + "." + a.mac(n)
}

func (a anonymousTokens) valid(token string) bool {
	n, mac, ok := strings.Cut(token, ".")
	return ok && n != "" && hmac.Equal([]byte(mac), []byte(a.mac(n)))
}

func (a anonymousTokens) mac(nonce string) string {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte("dashboard-anonymous-csrf:" + nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// anonymousCSRF returns the token of a form shown before sign-in: the cookie's when the
// service minted it, else a new one set in an HttpOnly SameSite cookie.
func (h *Dashboard) anonymousCSRF(c *fiber.Ctx) string {
	if v := c.Cookies(h.cookies.csrf); h.anonymous.valid(v) {
		return v
	}
	v := h.anonymous.mint()
	h.cookies.set(c, h.cookies.csrf, v, time.Time{})
	return v
}

// checkAnonymousCSRF: the cookie must hold a token the service minted and the form
// body must repeat it.
func (h *Dashboard) checkAnonymousCSRF(c *fiber.Ctx) error {
	cookie := c.Cookies(h.cookies.csrf)
	if !h.anonymous.valid(cookie) || !sameToken(formValue(c, "csrf"), cookie) {
		return csrfRefused
	}
	return nil
}
