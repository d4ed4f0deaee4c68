package v1

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/idempotency"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// The headers of safe retries (draft-ietf-httpapi-idempotency-key-header; Stripe's names).
const (
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderIdempotentReplayed = "Idempotent-Replayed"
	maxIdempotencyKey        = 255
)

// IdempotentRequests runs a request once per key (idempotency.Application.Run).
type IdempotentRequests = platform.Handler[idempotency.Request, idempotency.Outcome]

// Idempotent makes a POST safe to retry: with an Idempotency-Key it runs the rest of the
// route (its use case joins the transaction Run opens) and stores a success's status,
// content type and body with the change; a repeat of the key by the same API key gets
// that answer back, marked Idempotent-Replayed: true, and changes nothing. Without the
// header the route runs as it would. Register puts it on every POST, after the scope check.
func Idempotent(run IdempotentRequests) fiber.Handler {
	return func(c *fiber.Ctx) error {
		value, present, err := idempotencyKey(c)
		if err != nil || !present {
			if err != nil {
				return err
			}
			return c.Next()
		}
		p := PrincipalOf(c)
		outer := c.UserContext()
		defer c.SetUserContext(outer) // the transaction ends with Run
		out, err := run.Handle(outer, idempotency.Request{
			Key:         idempotency.Key{WorkspaceID: p.WorkspaceID, KeyID: p.KeyID, Value: value},
			Fingerprint: fingerprint(c),
			Run: func(ctx context.Context) (idempotency.Answer, error) {
				c.SetUserContext(ctx)
				if err := c.Next(); err != nil {
					return idempotency.Answer{}, err
				}
				r := c.Response()
				return idempotency.Answer{Status: r.StatusCode(), ContentType: string(r.Header.ContentType()), Body: bytes.Clone(r.Body())}, nil
			},
		})
		if errors.Is(err, idempotency.ErrReused) {
			return web.Invalid(HeaderIdempotencyKey, "%s", idempotency.ErrReused.Message)
		}
		if err != nil || !out.Replayed {
			return err // a fresh run's answer is in the response already
		}
		c.Set(HeaderIdempotentReplayed, "true")
		c.Set(fiber.HeaderContentType, out.ContentType)
		return c.Status(out.Status).Send(out.Body)
	}
}

// idempotencyKey reads the optional header: once, 1 to 255 printable ASCII characters.
func idempotencyKey(c *fiber.Ctx) (string, bool, error) {
	all := c.Request().Header.PeekAll(HeaderIdempotencyKey)
	switch {
	case len(all) == 0:
		return "", false, nil
	case len(all) > 1:
		return "", false, web.Invalid(HeaderIdempotencyKey, "the Idempotency-Key header is given more than once; send one")
	}
	v := all[0]
	if len(v) == 0 || len(v) > maxIdempotencyKey {
		return "", false, web.Invalid(HeaderIdempotencyKey, "Idempotency-Key must be 1 to %d printable ASCII characters; got %d bytes", maxIdempotencyKey, len(v))
	}
	for _, b := range v {
		if b < 0x20 || b > 0x7e {
			return "", false, web.Invalid(HeaderIdempotencyKey, "Idempotency-Key must be 1 to %d printable ASCII characters (a UUID is a good choice)", maxIdempotencyKey)
		}
	}
	return string(v), true, nil
}

// fingerprint hashes what makes a repeat the same request: the method, the path with
// its query string, and the body in canonical JSON (RFC 8785: key order and whitespace
// do not count; integers keep every digit). A body that is not JSON counts byte for byte; the route refuses it
// anyway, and refusals are not stored. Only the hash is kept, never the body.
func fingerprint(c *fiber.Ctx) []byte {
	body := jsontext.Value(bytes.Clone(c.Body()))
	if err := body.Canonicalize(jsontext.CanonicalizeRawInts(false)); err != nil { // integers as written, not as doubles
		body = jsontext.Value(c.Body())
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(c.Method()), []byte(c.Path()), c.Request().URI().QueryString(), body} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return h.Sum(nil)
}
