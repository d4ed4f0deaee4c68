// Package query reads orders as integrators see them.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Order is the order object of GET /api/v1/orders and of order.paid / order.refunded.
// Amounts are integers in the currency's minor unit.
type Order struct {
	ID             string        `json:"id"`
	StudentID      string        `json:"studentId"`
	Status         string        `json:"status"`
	Currency       string        `json:"currency"`
	Amount         int64         `json:"amount"`
	AmountRefunded int64         `json:"amountRefunded"`
	Items          []Item        `json:"items"`
	Entitlements   []Entitlement `json:"entitlements"`
	Receipt        Receipt       `json:"receipt"`
	History        []Entry       `json:"history"`
	PaidAt         time.Time     `json:"paidAt"`
	RefundedAt     *time.Time    `json:"refundedAt"`
	CreatedAt      time.Time     `json:"createdAt"`
	UpdatedAt      time.Time     `json:"updatedAt"`
}

// Item is one course bought; title is the course's title when it was bought.
type Item struct {
	CourseID string `json:"courseId"`
	Title    string `json:"title"`
	Amount   int64  `json:"amount"`
}

// Entitlement is the enrollment an item granted; revokedAt is set when a full refund took it back.
type Entitlement struct {
	CourseID     string     `json:"courseId"`
	EnrollmentID string     `json:"enrollmentId"`
	GrantedAt    time.Time  `json:"grantedAt"`
	RevokedAt    *time.Time `json:"revokedAt"`
}

// Receipt identifies the order to the student: R-000001, sequential per workspace.
type Receipt struct {
	Number string `json:"number"`
}

// Entry is one payment or refund, oldest first.
type Entry struct {
	Type   string    `json:"type"`
	Amount int64     `json:"amount"`
	At     time.Time `json:"at"`
}

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
