package command

import "time"

// The fields of the events' data the projection reads. The data is the resource as the
// API shows it; these mirror only what counts, so the module imports no other module.

type orderData struct {
	Currency string       `json:"currency"`
	Amount   int64        `json:"amount"`
	PaidAt   time.Time    `json:"paidAt"`
	History  []orderEntry `json:"history"`
}

// orderEntry is one payment or refund; history is ordered oldest first (by sequence),
// so the last entry of order.refunded is the refund that event announces.
type orderEntry struct {
	Type   string    `json:"type"`
	Amount int64     `json:"amount"`
	At     time.Time `json:"at"`
}

type studentData struct {
	CreatedAt time.Time `json:"createdAt"`
}

type enrollmentData struct {
	ID          string     `json:"id"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt"`
	CompletedAt *time.Time `json:"completedAt"`
}

type lessonData struct {
	CompletedAt time.Time `json:"completedAt"`
}
