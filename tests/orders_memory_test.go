package tests

import (
	"context"
	"sort"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memorders "github.com/creatorapi/creatorapi/adapters/memory/orders"
	"github.com/creatorapi/creatorapi/application/courses"
	coursecmd "github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	enrollmentquery "github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	domainorders "github.com/creatorapi/creatorapi/domain/orders"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The order use cases on the in-memory adapters (testenv.Options{Adapters:
// testenv.Memory}: courses, enrollments, students and orders in memory): only published
// courses of the workspace and live students are sold, concurrent orders get distinct
// consecutive receipts, lists page and filter, a full refund revokes the enrollments it
// granted; the order tables stay empty, which proves the swap.
func TestOrderCommandsOnMemoryAdapters(t *testing.T) {
	var (
		app  orders.Application
		crs  courses.Application
		ens  enrollments.Application
		repo domainorders.Repository
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &crs, &ens, &repo))
	if _, ok := repo.(memorders.Repository); !ok {
		t.Fatalf("orders.Repository is %T; want the memory twin", repo)
	}
	ctx := context.Background()
	ws := env.CreateWorkspace(t, "Memory")
	student := env.CreateStudent(t, ws, "ada@example.com")
	course := func(title string, publish bool) string {
		t.Helper()
		c, err := crs.Commands.CreateCourse.Handle(ctx, coursecmd.CreateCourse{WorkspaceID: ws, Title: title})
		if err != nil {
			t.Fatal(err)
		}
		if publish {
			if _, err := crs.Commands.PublishCourse.Handle(ctx, coursecmd.PublishCourse{WorkspaceID: ws, CourseID: c.ID}); err != nil {
				t.Fatal(err)
			}
		}
		return c.ID
	}
	goCourse, sqlCourse, draft := course("Go", true), course("SQL", true), course("Draft", false)
	place := func(items ...command.OrderItem) (query.Order, error) {
		return app.Commands.PlaceOrder.Handle(ctx, command.PlaceOrder{WorkspaceID: ws, StudentID: student, Currency: "eur", Items: items})
	}

	_, err := place(command.OrderItem{CourseID: draft, Amount: 100})
	wantInvalid(t, err, "items[0].courseId")
	_, err = app.Commands.PlaceOrder.Handle(ctx, command.PlaceOrder{WorkspaceID: ws, StudentID: "stu_missing", Currency: "eur",
		Items: []command.OrderItem{{CourseID: goCourse, Amount: 100}}})
	wantInvalid(t, err, "studentId")

	// Concurrent orders: distinct, consecutive receipt numbers.
	const n = 5
	receipts := make([]string, n)
	for i, err := range contracttest.Parallel(n, func(i int) error {
		o, err := place(command.OrderItem{CourseID: goCourse, Amount: 1000})
		receipts[i] = o.Receipt.Number
		return err
	}) {
		if err != nil {
			t.Fatalf("order %d: %v", i, err)
		}
	}
	sort.Strings(receipts)
	for i, r := range receipts {
		if want := domainorders.ReceiptNumber(int64(i + 1)); r != want {
			t.Fatalf("receipts %v; want %s at %d", receipts, want, i)
		}
	}

	env.Clock.Advance(time.Minute)
	both, err := place(command.OrderItem{CourseID: goCourse, Amount: 1000}, command.OrderItem{CourseID: sqlCourse, Amount: 500})
	if err != nil || both.Amount != 1500 || len(both.Entitlements) != 2 || both.Receipt.Number != domainorders.ReceiptNumber(n+1) {
		t.Fatalf("order of two courses: %+v, %v", both, err)
	}
	page, err := app.Queries.ListOrders.Handle(ctx, query.ListOrders{WorkspaceID: ws, Page: platform.PageRequest{Limit: 2}})
	if err != nil || len(page.Items) != 2 || page.Items[0].ID != both.ID || !page.HasMore {
		t.Fatalf("first page: %+v, %v", page, err)
	}

	// A partial refund keeps access; the full one revokes what only this order grants
	// (the Go course is granted by the five earlier orders too).
	part := int64(500)
	if o, err := app.Commands.RefundOrder.Handle(ctx, command.RefundOrder{WorkspaceID: ws, OrderID: both.ID, Amount: &part}); err != nil || o.Status != "partially_refunded" {
		t.Fatalf("partial refund: %+v, %v", o, err)
	}
	refunded, err := app.Commands.RefundOrder.Handle(ctx, command.RefundOrder{WorkspaceID: ws, OrderID: both.ID})
	if err != nil || refunded.Status != "refunded" || len(refunded.History) != 3 {
		t.Fatalf("full refund: %+v, %v", refunded, err)
	}
	for _, e := range refunded.Entitlements {
		en, err := ens.Queries.GetEnrollment.Handle(ctx, enrollmentquery.GetEnrollment{WorkspaceID: ws, EnrollmentID: e.EnrollmentID})
		if want := map[string]string{goCourse: "active", sqlCourse: "revoked"}[e.CourseID]; err != nil || en.Status != want {
			t.Fatalf("enrollment in %s after the refund: %+v, %v; want %s", e.CourseID, en, err, want)
		}
	}
	byStatus, err := app.Queries.ListOrders.Handle(ctx, query.ListOrders{WorkspaceID: ws, Filters: query.Filters{Status: "refunded"}, Page: platform.PageRequest{Limit: 10}})
	if err != nil || len(byStatus.Items) != 1 || byStatus.Items[0].ID != both.ID {
		t.Fatalf("refunded orders: %+v, %v", byStatus, err)
	}
	_, err = app.Queries.GetOrder.Handle(ctx, query.GetOrder{WorkspaceID: env.CreateWorkspace(t, "Other"), OrderID: both.ID})
	if !kernel.IsNotFound(err) {
		t.Fatalf("another workspace's order: %v", err)
	}

	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT (SELECT COUNT(*) FROM orders) + (SELECT COUNT(*) FROM order_items)
		+ (SELECT COUNT(*) FROM order_entitlements) + (SELECT COUNT(*) FROM receipt_counters)`); err != nil || rows != 0 {
		t.Fatalf("order rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
