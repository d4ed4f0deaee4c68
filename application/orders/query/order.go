// Package query reads orders as integrators see them.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
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

// ReadModel answers order queries; every method is scoped to one workspace.
type ReadModel interface {
	List(ctx context.Context, workspaceID string, f Filters, page platform.PageRequest) (platform.Page[Order], error)
	// Get returns kernel NotFound when the order is not in the workspace.
	Get(ctx context.Context, workspaceID, id string) (Order, error)
}
