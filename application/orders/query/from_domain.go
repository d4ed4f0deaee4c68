package query

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// FromDomain shows o: what order.paid and order.refunded carry, built from the aggregate
// the use case just changed.
func FromDomain(o *orders.Order) Order {
	out := Order{
		ID: o.ID, Livemode: kernel.Livemode(o.WorkspaceID), StudentID: o.StudentID, Status: string(o.Status), Currency: o.Currency,
		Amount: o.Amount, AmountRefunded: o.AmountRefunded, Receipt: Receipt{Number: o.ReceiptNumber},
		Items: make([]Item, 0, len(o.Items)), Entitlements: make([]Entitlement, 0, len(o.Entitlements)),
		History: make([]Entry, 0, len(o.History)),
		PaidAt:  o.PaidAt.UTC(), RefundedAt: platform.UTCPtr(o.RefundedAt), CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC(),
	}
	for _, it := range o.Items {
		out.Items = append(out.Items, Item{CourseID: it.CourseID, Title: it.Title, Amount: it.Amount})
	}
	for _, e := range o.Entitlements {
		out.Entitlements = append(out.Entitlements, Entitlement{CourseID: e.CourseID, EnrollmentID: e.EnrollmentID,
			GrantedAt: e.GrantedAt.UTC(), RevokedAt: platform.UTCPtr(e.RevokedAt)})
	}
	for _, h := range o.History {
		out.History = append(out.History, Entry{Type: string(h.Type), Amount: h.Amount, At: h.At.UTC()})
	}
	return out
}
