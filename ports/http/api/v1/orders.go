package v1

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// OrderEndpoints serves GET /orders.
func OrderEndpoints(app orders.Application, cursors *Cursors) []Endpoint {
	h := orderHandlers{app: app, cursors: cursors}
	return []Endpoint{
		{Method: fiber.MethodGet, Path: "/orders", Scope: keys.ReadOrders, Handler: h.list},
	}
}

type orderHandlers struct {
	app     orders.Application
	cursors *Cursors
}

func (h orderHandlers) list(c *fiber.Ctx) error {
	ws := PrincipalOf(c).WorkspaceID
	f, canonical, err := orderFilters(c)
	if err != nil {
		return err
	}
	// The cursor is bound to the filters: a cursor from one filtered list is refused
	// by another, instead of silently skipping or repeating orders.
	scope := Scope{List: "orders", WorkspaceID: ws, Filters: canonical}
	page, err := PageRequest(c, h.cursors, scope, "status", "studentId", "createdSince", "createdBefore", "updatedSince")
	if err != nil {
		return err
	}
	result, err := h.app.Queries.ListOrders.Handle(c.UserContext(), query.ListOrders{WorkspaceID: ws, Filters: f, Page: page})
	if err != nil {
		return err
	}
	return SendPage(c, h.cursors, scope, result)
}

// orderFilters reads the filter parameters; times are RFC 3339. canonical is a stable
// text of the filters, for the cursor.
func orderFilters(c *fiber.Ctx) (query.Filters, string, error) {
	var f query.Filters
	for _, p := range []struct {
		name string
		dst  *string
	}{{"status", &f.Status}, {"studentId", &f.StudentID}} {
		if c.Context().QueryArgs().Has(p.name) && c.Query(p.name) == "" {
			return query.Filters{}, "", web.Invalid(p.name, "%s must not be empty; leave it out to not filter", p.name)
		}
		*p.dst = c.Query(p.name)
	}
	canonical := "status=" + f.Status + "\x00studentId=" + f.StudentID
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"createdSince", &f.CreatedSince}, {"createdBefore", &f.CreatedBefore}, {"updatedSince", &f.UpdatedSince}} {
		t, err := instantParam(c, p.name)
		if err != nil {
			return query.Filters{}, "", err
		}
		*p.dst = t
		canonical += "\x00" + p.name + "="
		if t != nil {
			canonical += t.Format(time.RFC3339Nano)
		}
	}
	return f, canonical, nil
}

// instantParam parses an optional RFC 3339 query parameter; present but empty is invalid.
func instantParam(c *fiber.Ctx, name string) (*time.Time, error) {
	if !c.Context().QueryArgs().Has(name) {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, c.Query(name))
	if err != nil {
		return nil, web.Invalid(name, "%s must be an RFC 3339 time such as 2026-11-21T10:00:00Z", name)
	}
	t = t.UTC()
	return &t, nil
}
