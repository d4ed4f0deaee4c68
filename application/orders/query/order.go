// Package query reads orders as integrators see them.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// The order as the API shows it is the payload of order.paid and order.refunded
// (application/events).
type (
	Order       = events.Order
	Item        = events.OrderItem
	Entitlement = events.Entitlement
	Receipt     = events.Receipt
	Entry       = events.OrderEntry
)

// Filters narrow the order list; zero values do not filter. Times compare as
// createdSince <= createdAt < createdBefore and updatedAt >= updatedSince.
type Filters struct {
	Status        string
	StudentID     string
	CreatedSince  *time.Time
	CreatedBefore *time.Time
	UpdatedSince  *time.Time
}

// ReadModel reads orders as aggregates (FromDomain shows them, as it shows the one a
// command just changed); every method is scoped to one workspace.
type ReadModel interface {
	// List returns one keyset page, newest first (created_at DESC, id DESC), with the
	// items, entitlements and history of the whole page loaded at once.
	List(ctx context.Context, workspaceID string, f Filters, page platform.PageRequest) (platform.Page[*orders.Order], error)
	// Get returns kernel NotFound when the order is not in the workspace.
	Get(ctx context.Context, workspaceID, id string) (*orders.Order, error)
}

// Published is the orders module's published read port, wired to other modules by the
// composition root through the Application's FirstActivity (the analytics rebuild
// guard). It reads in the caller's transaction when there is one.
type Published interface {
	// FirstActivity returns the earliest payment or refund over every workspace; ok is
	// false when there is none.
	FirstActivity(ctx context.Context) (at time.Time, ok bool, err error)
}
