package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// PlaceOrder records a paid order (emits enrollment.created for each course granted,
// then order.paid).
type PlaceOrder struct {
	WorkspaceID string
	StudentID   string
	Currency    string
	Items       []OrderItem
}

// OrderItem is one course and its price in minor units.
type OrderItem struct {
	CourseID string
	Amount   int64
}

// PlaceOrder validates the order against the workspace, draws its receipt number, grants an
// enrollment per course and publishes the events, all in one transaction: a failure
// anywhere leaves no order, no enrollment, no receipt number used and no event.
func (d Deps) PlaceOrder(ctx context.Context, cmd PlaceOrder) (out query.Order, err error) {
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return out, err
	}
	if err := orders.ValidateCurrency(cmd.Currency); err != nil {
		return out, err
	}
	items, err := d.items(ctx, cmd)
	if err != nil {
		return out, err
	}
	ok, err := d.Students.Exists(ctx, cmd.WorkspaceID, cmd.StudentID)
	if err != nil {
		return out, err
	}
	if !ok {
		return out, kernel.Invalid("studentId", "student %s does not exist in this workspace", cmd.StudentID)
	}
	n, err := d.Repo.NextReceipt(ctx, cmd.WorkspaceID)
	if err != nil {
		return out, err
	}
	now := d.Clock.Now()
	o, err := orders.NewPaid(d.IDs.New(orders.IDPrefix), cmd.WorkspaceID, cmd.StudentID, cmd.Currency, items, orders.ReceiptNumber(n), now)
	if err != nil {
		return out, err
	}
	for _, it := range o.Items {
		enrollmentID, err := d.Entitlements.Grant(ctx, cmd.WorkspaceID, cmd.StudentID, it.CourseID)
		if err != nil {
			return out, fmt.Errorf("grant %s: %w", it.CourseID, err)
		}
		o.Grant(it.CourseID, enrollmentID, now)
	}
	if err := d.Repo.Add(ctx, o); err != nil {
		return out, err
	}
	out = query.FromDomain(o)
	return out, d.Publisher.Publish(ctx, events.OrderPaidV1.New(cmd.WorkspaceID, out))
}

// items checks the item list and resolves every course to a published course of the
// workspace, keeping its title as it is now.
func (d Deps) items(ctx context.Context, cmd PlaceOrder) ([]orders.Item, error) {
	items := make([]orders.Item, len(cmd.Items))
	ids := make([]string, len(cmd.Items))
	for i, it := range cmd.Items {
		items[i] = orders.Item{CourseID: it.CourseID, Amount: it.Amount}
		ids[i] = it.CourseID
	}
	if err := orders.ValidateItems(items); err != nil {
		return nil, err
	}
	titles, err := d.Courses.PublishedTitles(ctx, cmd.WorkspaceID, ids)
	if err != nil {
		return nil, err
	}
	for i := range items {
		title, ok := titles[items[i].CourseID]
		if !ok {
			f := orders.ItemField(i, "courseId")
			return nil, kernel.Invalid(f, "%s: course %s is not a published course of this workspace", f, items[i].CourseID)
		}
		items[i].Title = title
	}
	return items, nil
}
