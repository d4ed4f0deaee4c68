package events

import "time"

// Order is the data of order.paid and order.refunded, and the API's order. Amounts are
// integers in the currency's minor unit.
type Order struct {
	ID             string        `json:"id"`
	Livemode       bool          `json:"livemode"` // false in a sandbox
	StudentID      string        `json:"studentId"`
	Status         string        `json:"status"`
	Currency       string        `json:"currency"`
	Amount         int64         `json:"amount"`
	AmountRefunded int64         `json:"amountRefunded"`
	Items          []OrderItem   `json:"items"`
	Entitlements   []Entitlement `json:"entitlements"`
	Receipt        Receipt       `json:"receipt"`
	History        []OrderEntry  `json:"history"`
	PaidAt         time.Time     `json:"paidAt"`
	RefundedAt     *time.Time    `json:"refundedAt"`
	CreatedAt      time.Time     `json:"createdAt"`
	UpdatedAt      time.Time     `json:"updatedAt"`
}

// OrderItem is one course bought; title is the course's title when it was bought.
type OrderItem struct {
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

// OrderEntry is one payment or refund. History is oldest first, so the last entry of
// order.refunded is the refund that event announces.
type OrderEntry struct {
	Type   string    `json:"type"` // EntryPaid or EntryRefunded
	Amount int64     `json:"amount"`
	At     time.Time `json:"at"`
}

// The types of an order's history entries.
const (
	EntryPaid     = "paid"
	EntryRefunded = "refunded"
)
