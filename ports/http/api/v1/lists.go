package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// The list kit lives in ports/http/web, shared with the operator API (a port never imports
// another port); these names keep the public API's handlers short.

const (
	DefaultLimit = web.DefaultLimit
	MaxLimit     = web.MaxLimit
)

type (
	ListEnvelope[T any] = web.ListEnvelope[T]
	Pagination          = web.Pagination
	Cursors             = web.Cursors
	Scope               = web.Scope
)

// OnlyParams: see web.OnlyParams.
func OnlyParams(c *fiber.Ctx, allowed ...string) error { return web.OnlyParams(c, allowed...) }

// PageRequest: see web.PageRequest.
func PageRequest(c *fiber.Ctx, cursors *Cursors, s Scope, filterParams ...string) (platform.PageRequest, error) {
	return web.PageRequest(c, cursors, s, filterParams...)
}

// SendPage: see web.SendPage.
func SendPage[T any](c *fiber.Ctx, cursors *Cursors, s Scope, page platform.Page[T]) error {
	return web.SendPage(c, cursors, s, page)
}

func pageEnvelope[T any](cursors *Cursors, s Scope, page platform.Page[T]) ListEnvelope[T] {
	return web.PageEnvelope(cursors, s, page)
}
