package web

import (
	"sort"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// Route is one endpoint of a route table.
type Route struct {
	Method   string
	Path     string
	Handlers []fiber.Handler
}

// Mount registers routes (their text inputs checked, see checkRequestText) and, for every path, a fallback that answers other methods
// with 405 method_not_allowed and an Allow header. Paths without parameters come first
// (fiber matches in registration order): GET /students/batch is a 405 of the batch's
// path, not a fetch of a student whose id is "batch".
func Mount(r fiber.Router, routes []Route) {
	var static, parametric []Route
	for _, rt := range routes {
		if strings.Contains(rt.Path, ":") {
			parametric = append(parametric, rt)
		} else {
			static = append(static, rt)
		}
	}
	mount(r, static)
	mount(r, parametric)
}

func mount(r fiber.Router, routes []Route) {
	allowed := map[string][]string{}
	var paths []string
	for _, rt := range routes {
		if _, seen := allowed[rt.Path]; !seen {
			paths = append(paths, rt.Path)
		}
		allowed[rt.Path] = append(allowed[rt.Path], rt.Method)
		r.Add(rt.Method, rt.Path, withTextCheck(rt.Handlers)...)
	}
	for _, path := range paths {
		methods := allowed[path]
		sort.Strings(methods)
		allow := strings.Join(methods, ", ")
		r.All(path, func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderAllow, allow)
			return &Problem{Status: fiber.StatusMethodNotAllowed, Code: CodeMethodNotAllowed,
				Message: c.Method() + " is not allowed here; allowed: " + allow}
		})
	}
}

// withTextCheck puts checkRequestText before the last handler (the endpoint's own).
func withTextCheck(handlers []fiber.Handler) []fiber.Handler {
	if len(handlers) == 0 {
		return handlers
	}
	out := make([]fiber.Handler, 0, len(handlers)+1)
	out = append(out, handlers[:len(handlers)-1]...)
	return append(out, checkRequestText, handlers[len(handlers)-1])
}

// NotFoundFallback answers every path no route matched with 404 not_found.
func NotFoundFallback() fiber.Handler {
	return func(c *fiber.Ctx) error {
		return NotFound("no such endpoint: " + c.Method() + " " + c.Path())
	}
}
