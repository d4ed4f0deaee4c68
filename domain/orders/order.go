// Package orders holds a paid order: what was bought (items), what it entitles the
// student to (one enrollment per course), its receipt, and its payment and refund history.
package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes order ids.
const IDPrefix = "ord"

// Limits of an order.
const (
	MaxItems = 50
	// MaxItemAmount keeps the sum of 50 items far inside int64 (and inside what any
	// payment provider accepts): 10^12 minor units is ten billion dollars.
	MaxItemAmount int64 = 1_000_000_000_000
)

// Status is where an order stands with its money.
type Status string

// Order states: paid at creation, then partially refunded or refunded.
const (
	Paid              Status = "paid"
	PartiallyRefunded Status = "partially_refunded"
	Refunded          Status = "refunded"
)

// Statuses lists the states in their life-cycle order.
func Statuses() []Status { return []Status{Paid, PartiallyRefunded, Refunded} }

// ParseStatus validates a status named by a caller (field names the input).
func ParseStatus(field, s string) (Status, error) {
	for _, st := range Statuses() {
		if string(st) == s {
			return st, nil
		}
	}
	return "", kernel.Invalid(field, "%s must be one of paid, partially_refunded, refunded", field)
}

// EntryType tells a payment from a refund in the history.
type EntryType string

// History entry types.
const (
	EntryPaid     EntryType = "paid"
	EntryRefunded EntryType = "refunded"
)

// Item is one course bought, with its title when bought and its price in minor units.
type Item struct {
	CourseID string
	Title    string
	Amount   int64
}

// Entitlement is the access an item granted: the enrollment, and when the order took it back.
type Entitlement struct {
	CourseID     string
	EnrollmentID string
	GrantedAt    time.Time
	RevokedAt    *time.Time
}

// Entry is one movement of money: the payment, then each refund.
type Entry struct {
	Seq    int
	Type   EntryType
	Amount int64
	At     time.Time
}

// Order is the aggregate: money moves and entitlements change only through it.
type Order struct {
	ID             string
	WorkspaceID    string
	StudentID      string
	Status         Status
	Currency       string
	Amount         int64
	AmountRefunded int64
	ReceiptNumber  string
	Items          []Item
	Entitlements   []Entitlement
	History        []Entry
	PaidAt         time.Time
	RefundedAt     *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// ItemField names the course of item i in error messages ("items[2].courseId").
func ItemField(i int, name string) string { return fmt.Sprintf("items[%d].%s", i, name) }

// ReceiptNumber formats the n-th receipt of a workspace: R-000001, R-000002, ...
// (more digits once past a million).
func ReceiptNumber(n int64) string { return fmt.Sprintf("R-%06d", n) }

// NewPaid builds an order paid at now. Items must name distinct courses; their titles
// are the caller's snapshot of the catalogue.
func NewPaid(id, workspaceID, studentID, currency string, items []Item, receipt string, now time.Time) (*Order, error) {
	if studentID == "" {
		return nil, kernel.Invalid("studentId", "studentId is required")
	}
	if err := ValidateCurrency(currency); err != nil {
		return nil, err
	}
	if err := ValidateItems(items); err != nil {
		return nil, err
	}
	var total int64
	for _, it := range items {
		total += it.Amount
	}
	return &Order{
		ID: id, WorkspaceID: workspaceID, StudentID: studentID, Status: Paid, Currency: currency,
		Amount: total, ReceiptNumber: receipt, Items: items,
		History: []Entry{{Seq: 1, Type: EntryPaid, Amount: total, At: now}},
		PaidAt:  now, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// ValidateItems checks the count, the amounts and that no course appears twice.
func ValidateItems(items []Item) error {
	if len(items) == 0 || len(items) > MaxItems {
		return kernel.Invalid("items", "items must hold 1 to %d courses", MaxItems)
	}
	seen := map[string]int{}
	for i, it := range items {
		if it.CourseID == "" {
			return kernel.Invalid(ItemField(i, "courseId"), "%s is required", ItemField(i, "courseId"))
		}
		if first, dup := seen[it.CourseID]; dup {
			return kernel.Invalid(ItemField(i, "courseId"), "%s repeats the course of items[%d]", ItemField(i, "courseId"), first)
		}
		seen[it.CourseID] = i
		if it.Amount < 0 || it.Amount > MaxItemAmount {
			return kernel.Invalid(ItemField(i, "amount"), "%s must be an integer from 0 to %d (minor units)", ItemField(i, "amount"), MaxItemAmount)
		}
	}
	return nil
}

// Grant records the enrollment that gives the student access to courseID.
func (o *Order) Grant(courseID, enrollmentID string, now time.Time) {
	o.Entitlements = append(o.Entitlements, Entitlement{CourseID: courseID, EnrollmentID: enrollmentID, GrantedAt: now})
	o.UpdatedAt = now
}

// Remaining is what can still be refunded.
func (o *Order) Remaining() int64 { return o.Amount - o.AmountRefunded }

// Refund returns amount (nil: everything left) to the student. A refund that empties the
// order makes it refunded; the caller then revokes its entitlements (see RevokeAll).
func (o *Order) Refund(amount *int64, now time.Time) (Entry, error) {
	left := o.Remaining()
	if o.Status == Refunded {
		return Entry{}, kernel.Invalid("amount", "order %s is already fully refunded", o.ID)
	}
	if left <= 0 {
		return Entry{}, kernel.Invalid("amount", "order %s has nothing left to refund", o.ID)
	}
	n := left
	if amount != nil {
		n = *amount
	}
	if n <= 0 {
		return Entry{}, kernel.Invalid("amount", "amount must be a positive integer (minor units)")
	}
	if n > left {
		return Entry{}, kernel.Invalid("amount", "amount %d exceeds what is left to refund (%d)", n, left)
	}
	e := Entry{Seq: len(o.History) + 1, Type: EntryRefunded, Amount: n, At: now}
	o.History = append(o.History, e)
	o.AmountRefunded += n
	o.Status = PartiallyRefunded
	if o.AmountRefunded == o.Amount {
		o.Status = Refunded
		o.RefundedAt = &now
	}
	o.UpdatedAt = now
	return e, nil
}

// RevokeAll marks every live entitlement revoked and returns the enrollments to revoke.
func (o *Order) RevokeAll(now time.Time) []string {
	var ids []string
	for i := range o.Entitlements {
		e := &o.Entitlements[i]
		if e.RevokedAt == nil {
			e.RevokedAt = &now
			ids = append(ids, e.EnrollmentID)
		}
	}
	if len(ids) > 0 {
		o.UpdatedAt = now
	}
	return ids
}

// RevokeEntitlement stamps the live entitlement backed by enrollmentID, when the
// enrollment was revoked outside this order (by an operator, or another order's refund).
// It reports whether anything changed.
func (o *Order) RevokeEntitlement(enrollmentID string, at time.Time) bool {
	changed := false
	for i := range o.Entitlements {
		e := &o.Entitlements[i]
		if e.EnrollmentID == enrollmentID && e.RevokedAt == nil {
			e.RevokedAt = &at
			changed = true
		}
	}
	if changed && at.After(o.UpdatedAt) {
		o.UpdatedAt = at
	}
	return changed
}

// Repository stores order aggregates. Get returns NotFound outside the workspace and
// locks the order for the caller's transaction.
type Repository interface {
	Add(ctx context.Context, o *Order) error
	Get(ctx context.Context, workspaceID, id string) (*Order, error)
	// Update saves the order row and its entitlements, and appends new history entries.
	Update(ctx context.Context, o *Order) error
	// LiveGrantsElsewhere counts the unrevoked entitlements to enrollmentID held by orders other than orderID.
	LiveGrantsElsewhere(ctx context.Context, workspaceID, enrollmentID, orderID string) (int, error)
	// WithEnrollment lists the ids of the workspace's orders holding an entitlement to enrollmentID.
	WithEnrollment(ctx context.Context, workspaceID, enrollmentID string) ([]string, error)
	// NextReceipt draws the workspace's next receipt sequence number, race-safe and
	// without gaps on commit.
	NextReceipt(ctx context.Context, workspaceID string) (int64, error)
}
