package v1

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// DeprecatedCalls counts calls of deprecated routes per key (in memory, flushed in bulk).
type DeprecatedCalls interface {
	Record(workspaceID, keyID, route string, sunset, at time.Time)
}

// Deprecations is the guard that marks the responses of a deprecated major, route or
// field (the version registry, platform.Versions) with Deprecation: @<unix seconds>
// (RFC 9745), Sunset: <IMF-fixdate> (RFC 8594) and Link: <migration page>;
// rel="deprecation", and counts the call for its key. The route is known once routing
// has run, so the headers are set after the handler, on every answer of the route (an
// error too); a 429 is not counted, as it consumes no quota. A registry that deprecates
// nothing (production while v1 has no successor) costs one branch.
func Deprecations(versions *platform.Versions, calls DeprecatedCalls, clock platform.Clock) fiber.Handler {
	if !versions.Deprecates() {
		return func(c *fiber.Ctx) error { return c.Next() }
	}
	return func(c *fiber.Ctx) error {
		err := c.Next()
		path := c.Route().Path
		if !strings.HasPrefix(path, Prefix+"/") {
			return err // no route of the API answered (an unknown path's 404)
		}
		route := c.Method() + " " + openAPIPath(path)
		notice, ok := versions.Of(route)
		if !ok {
			return err
		}
		c.Set("Deprecation", "@"+strconv.FormatInt(notice.Since.Unix(), 10))
		c.Set("Sunset", notice.Sunset.UTC().Format(http.TimeFormat))
		c.Set(fiber.HeaderLink, "<"+notice.Link+`>; rel="deprecation"`)
		if c.Response().StatusCode() != fiber.StatusTooManyRequests && !isRateLimited(err) {
			p := PrincipalOf(c)
			calls.Record(p.WorkspaceID, p.KeyID, route, notice.Sunset, clock.Now())
		}
		return err
	}
}

// openAPIPath writes fiber's path parameters as the OpenAPI document does: /courses/:id
// is /courses/{id}.
func openAPIPath(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if name, ok := strings.CutPrefix(p, ":"); ok {
			parts[i] = "{" + name + "}"
		}
	}
	return strings.Join(parts, "/")
}

func isRateLimited(err error) bool {
	var p *web.Problem
	return errors.As(err, &p) && p.Status == fiber.StatusTooManyRequests
}
