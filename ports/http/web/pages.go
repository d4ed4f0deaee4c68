package web

import (
	"fmt"
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
// counts would be a guess; 422, the specification's status for bad parameters). An
// unknown parameter is named before a repeated one.
func OnlyParams(c *fiber.Ctx, allowed ...string) error {
	return onlyParams(c, nil, allowed)
}

// maxParams bounds the parameters one list accepts: their "seen" marks fit one word.
const maxParams = 64

// onlyParams is OnlyParams over the names of first and then rest. It runs on every list
// request, so it scans instead of building a set: each name is looked up in the few
// allowed ones (compared as bytes, no string made), a bit per allowed name marks it seen,
// and nothing is allocated unless a problem is returned.
func onlyParams(c *fiber.Ctx, first, rest []string) error {
	if len(first)+len(rest) > maxParams {
		panic(fmt.Sprintf("web.OnlyParams: %d parameters, at most %d", len(first)+len(rest), maxParams))
	}
	var seen uint64
	var unknown, repeated []byte
	c.Context().QueryArgs().VisitAll(func(k, _ []byte) {
		i := paramIndex(first, rest, k)
		switch {
		case i < 0:
			if unknown == nil {
				unknown = k
			}
		case seen&(1<<i) != 0:
			if repeated == nil {
				repeated = k
			}
		default:
			seen |= 1 << i
		}
	})
	if unknown != nil {
		return Invalid(string(unknown), "unknown query parameter %q", unknown)
	}
	if repeated != nil {
		return Invalid(string(repeated), "query parameter %q is given more than once; send it once", repeated)
	}
	return nil
}

// paramIndex is name's position in first then rest, or -1.
func paramIndex(first, rest []string, name []byte) int {
	for i, a := range first {
		if a == string(name) { // no allocation: the compiler compares in place
			return i
		}
	}
	for i, a := range rest {
		if a == string(name) {
			return len(first) + i
		}
	}
	return -1
}

// pageParams are the parameters of every paged list.
func pageParams() []string { return []string{"limit", "cursor"} }

// PageRequest reads limit and cursor, both validated. filterParams are the other
// parameters the list accepts; cursors are bound to their values.
func PageRequest(c *fiber.Ctx, cursors *Cursors, s Scope, filterParams ...string) (platform.PageRequest, error) {
	if err := onlyParams(c, pageParams(), filterParams); err != nil {
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
