package web

import (
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Lists: page sizes, the envelope, strict parameters and sealed cursors, shared by every
// HTTP port that lists (the public API and the operator API).

// Page sizes of every list.
const (
	DefaultLimit = 25
	MaxLimit     = 100
)

// ListEnvelope is the specification's list shape.
type ListEnvelope[T any] struct {
	Data       []T        `json:"data"`
	Pagination Pagination `json:"pagination"`
}

// Pagination tells how to get the next page.
type Pagination struct {
	Cursor  *string `json:"cursor"`
	HasMore bool    `json:"has_more"`
}

// OnlyParams refuses any query parameter not in allowed (a typo must not silently
// return unfiltered data) and any parameter given twice (`?limit=1&limit=2`: which one
// counts would be a guess; 422, the specification's status for bad parameters).
func OnlyParams(c *fiber.Ctx, allowed ...string) error {
	var unknown, repeated string
	seen := make(map[string]bool, len(allowed))
	c.Context().QueryArgs().VisitAll(func(k, _ []byte) {
		name := string(k)
		if seen[name] && repeated == "" {
			repeated = name
		}
		seen[name] = true
		if unknown == "" && !slices.Contains(allowed, name) {
			unknown = name
		}
	})
	if unknown != "" {
		return Invalid(unknown, "unknown query parameter %q", unknown)
	}
	if repeated != "" {
		return Invalid(repeated, "query parameter %q is given more than once; send it once", repeated)
	}
	return nil
}

// PageRequest reads limit and cursor, both validated. filterParams are the other
// parameters the list accepts; cursors are bound to their values.
func PageRequest(c *fiber.Ctx, cursors *Cursors, s Scope, filterParams ...string) (platform.PageRequest, error) {
	if err := OnlyParams(c, append([]string{"limit", "cursor"}, filterParams...)...); err != nil {
		return platform.PageRequest{}, err
	}
	req := platform.PageRequest{Limit: DefaultLimit}
	if raw := c.Query("limit"); raw != "" || c.Context().QueryArgs().Has("limit") {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxLimit {
			return platform.PageRequest{}, Invalid("limit", "limit must be an integer from 1 to %d", MaxLimit)
		}
		req.Limit = n
	}
	if c.Context().QueryArgs().Has("cursor") {
		after, err := cursors.Decode(s, c.Query("cursor"))
		if err != nil {
			return platform.PageRequest{}, err
		}
		req.After = after
	}
	return req, nil
}

// SendPage writes one page in the list envelope with a sealed next cursor.
func SendPage[T any](c *fiber.Ctx, cursors *Cursors, s Scope, page platform.Page[T]) error {
	return c.JSON(PageEnvelope(cursors, s, page))
}

// PageEnvelope builds the list envelope of one page, sealing the next position.
func PageEnvelope[T any](cursors *Cursors, s Scope, page platform.Page[T]) ListEnvelope[T] {
	out := ListEnvelope[T]{Data: page.Items, Pagination: Pagination{HasMore: page.HasMore}}
	if out.Data == nil {
		out.Data = []T{}
	}
	if page.HasMore && page.Next != nil {
		cur := cursors.Encode(s, *page.Next)
		out.Pagination.Cursor = &cur
	}
	return out
}
