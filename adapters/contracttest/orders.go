package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// OrderAdapters is one implementation of the orders module's ports, over one store (what
// the repository writes, the read ports read).
type OrderAdapters struct {
	Repo       orders.Repository
	Reads      query.ReadModel
	Published  query.Published
	References // workspaces, students, courses and enrollments the orders name
}

// OrderFactory opens a store once per suite; each case works in its own workspace.
type OrderFactory func(t *testing.T) OrderAdapters

// newOrder is a paid order of the student for each course (100 minor units a course,
// then 10 more each) with the workspace's next receipt number, each course granted with
// an enrollment, as PlaceOrder builds it.
func newOrder(t *testing.T, a OrderAdapters, ws, student, name string, minute int, courses ...string) *orders.Order {
	t.Helper()
	items := make([]orders.Item, len(courses))
	for i, c := range courses {
		items[i] = orders.Item{CourseID: c, Title: "Course " + c, Amount: int64(100 + 10*i)}
	}
	n, err := a.Repo.NextReceipt(context.Background(), ws)
	if err != nil {
		t.Fatalf("next receipt: %v", err)
	}
	o, err := orders.NewPaid(fmt.Sprintf("ord_%s_%s", ws, name), ws, student, "eur", items, orders.ReceiptNumber(n), at(minute))
	if err != nil {
		t.Fatalf("new order: %v", err)
	}
	for _, c := range courses {
		o.Grant(c, a.NewEnrollment(t, ws, student, c), at(minute))
	}
	return o
}

func mustAddOrder(t *testing.T, a OrderAdapters, o *orders.Order) {
	t.Helper()
	if err := a.Repo.Add(context.Background(), o); err != nil {
		t.Fatalf("add %s: %v", o.ID, err)
	}
}

func mustUpdateOrder(t *testing.T, a OrderAdapters, o *orders.Order) {
	t.Helper()
	if err := a.Repo.Update(context.Background(), o); err != nil {
		t.Fatalf("update %s: %v", o.ID, err)
	}
}

// courses makes n courses of the workspace.
func (a OrderAdapters) courses(t *testing.T, ws string, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i], _ = a.NewCourse(t, ws, 1)
	}
	return ids
}

// OrderRepository is the contract of orders.Repository.
func OrderRepository(t *testing.T, open OrderFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a new order reads back as written, items, entitlements and history in order", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		o := newOrder(t, a, ws, a.NewStudent(t, ws), "three", 0, a.courses(t, ws, 3)...)
		mustAddOrder(t, a, o)
		got, err := a.Repo.Get(ctx, ws, o.ID)
		if err != nil {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, o)
		}
		mustMatch(t, "Get", o, got)
	})

	t.Run("refunds save state, revocations and history; items never change", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		o := newOrder(t, a, ws, a.NewStudent(t, ws), "refunded", 0, a.courses(t, ws, 2)...)
		mustAddOrder(t, a, o)
		part := int64(50)
		if _, err := o.Refund(&part, at(5)); err != nil {
			t.Fatal(err)
		}
		mustUpdateOrder(t, a, o)
		if got, err := a.Repo.Get(ctx, ws, o.ID); err != nil || !reflect.DeepEqual(got, o) {
			t.Fatalf("after a partial refund: %+v, %v; want %+v", got, err, o)
		}
		if _, err := o.Refund(nil, at(6)); err != nil {
			t.Fatal(err)
		}
		o.RevokeAll(at(6))
		stored := *o
		o.Items = append([]orders.Item(nil), o.Items...)
		o.Items[0].Title = "renamed" // the stored items are the order's record
		mustUpdateOrder(t, a, o)
		got, err := a.Repo.Get(ctx, ws, o.ID)
		if err != nil || !reflect.DeepEqual(got, &stored) || got.Status != orders.Refunded || len(got.History) != 3 {
			t.Fatalf("after the full refund: %+v, %v; want %+v", got, err, &stored)
		}
	})

	t.Run("another workspace's order is not found; an id and a receipt number are stored once", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		o := newOrder(t, a, ws, a.NewStudent(t, ws), "mine", 0, a.courses(t, ws, 1)...)
		mustAddOrder(t, a, o)
		sameReceipt := newOrder(t, a, ws, o.StudentID, "same-receipt", 1, o.Items[0].CourseID)
		sameReceipt.ReceiptNumber = o.ReceiptNumber
		if err := a.Repo.Add(ctx, sameReceipt); err == nil {
			t.Fatal("a second order with the same receipt number was added")
		}
		elsewhere := newOrder(t, a, other, a.NewStudent(t, other), "elsewhere", 1, a.courses(t, other, 1)...)
		elsewhere.ReceiptNumber = o.ReceiptNumber // receipt numbers are per workspace
		mustAddOrder(t, a, elsewhere)
		_, err := a.Repo.Get(ctx, other, o.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.Get(ctx, ws, "ord_missing")
		wantKind(t, err, kernel.KindNotFound, "")
		again := *o
		again.Amount = 1
		if err := a.Repo.Add(ctx, &again); err == nil {
			t.Fatal("a second order with the same id was added")
		}
		if got, err := a.Repo.Get(ctx, ws, o.ID); err != nil || got.Amount != o.Amount {
			t.Fatalf("after the refused add: %+v, %v", got, err)
		}
	})

	t.Run("receipt numbers: consecutive per workspace, distinct under concurrency", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		const n = 8
		got := make([]int64, n)
		for i, err := range Parallel(n, func(i int) error {
			var err error
			got[i], err = a.Repo.NextReceipt(ctx, ws)
			return err
		}) {
			if err != nil {
				t.Fatalf("draw %d: %v", i, err)
			}
		}
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		for i, num := range got {
			if num != int64(i+1) {
				t.Fatalf("concurrent draws gave %v; want 1..%d once each", got, n)
			}
		}
		if num, err := a.Repo.NextReceipt(ctx, other); err != nil || num != 1 {
			t.Fatalf("another workspace's first draw: %d, %v", num, err)
		}
	})

	t.Run("orders holding an enrollment, and its live grants elsewhere", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		student := a.NewStudent(t, ws)
		course := a.courses(t, ws, 1)[0]
		enrollment := a.NewEnrollment(t, ws, student, course)
		buy := func(name string, minute int) *orders.Order {
			o := newOrder(t, a, ws, student, name, minute, course) // the pair's one enrollment
			mustAddOrder(t, a, o)
			return o
		}
		first, second := buy("a", 0), buy("b", 1)
		ids, err := a.Repo.WithEnrollment(ctx, ws, enrollment)
		want := []string{first.ID, second.ID}
		sort.Strings(want)
		if err != nil {
			t.Fatalf("WithEnrollment = %v, %v; want %v", ids, err, want)
		}
		mustMatch(t, "WithEnrollment", want, ids)
		if ids, err := a.Repo.WithEnrollment(ctx, other, enrollment); err != nil || len(ids) != 0 {
			t.Fatalf("another workspace: %v, %v", ids, err)
		}
		if n, err := a.Repo.LiveGrantsElsewhere(ctx, ws, enrollment, first.ID); err != nil || n != 1 {
			t.Fatalf("live grants beside the first: %d, %v; want 1", n, err)
		}
		if !second.RevokeEntitlement(enrollment, at(3)) {
			t.Fatal("the entitlement did not revoke")
		}
		mustUpdateOrder(t, a, second)
		if n, err := a.Repo.LiveGrantsElsewhere(ctx, ws, enrollment, first.ID); err != nil || n != 0 {
			t.Fatalf("live grants beside the first after revoking the second: %d, %v; want 0", n, err)
		}
		if got, err := a.Repo.Get(ctx, ws, second.ID); err != nil || !reflect.DeepEqual(got, second) {
			t.Fatalf("after the revocation: %+v, %v; want %+v", got, err, second)
		}
	})
}

// OrderReads is the contract of query.ReadModel and query.Published.
func OrderReads(t *testing.T, open OrderFactory) {
	a := open(t)
	ctx := context.Background()
	ids := func(t *testing.T, ws string, f query.Filters, limit int) []string {
		return pageThrough(t, limit, func(o *orders.Order) string { return o.ID },
			func(p platform.PageRequest) (platform.Page[*orders.Order], error) { return a.Reads.List(ctx, ws, f, p) })
	}

	t.Run("the list is newest first in keyset pages, with whole orders and filters", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s1, s2 := a.NewStudent(t, ws), a.NewStudent(t, ws)
		course := a.courses(t, ws, 2)
		all := make([]*orders.Order, 5)
		for i := range all {
			minute, student := i*10, s1
			if i == 4 {
				minute = 30 // a tie on created_at: the larger id comes first
			}
			if i%2 == 1 {
				student = s2
			}
			all[i] = newOrder(t, a, ws, student, fmt.Sprintf("list%d", i), minute, course...)
			mustAddOrder(t, a, all[i])
		}
		mustAddOrder(t, a, newOrder(t, a, other, a.NewStudent(t, other), "elsewhere", 0, a.courses(t, other, 1)...))
		if _, err := all[0].Refund(nil, at(50)); err != nil {
			t.Fatal(err)
		}
		mustUpdateOrder(t, a, all[0])

		want := []string{all[4].ID, all[3].ID, all[2].ID, all[1].ID, all[0].ID} // list4 > list3 on the tie
		for _, limit := range []int{2, 5, 9} {
			if got := ids(t, ws, query.Filters{}, limit); !reflect.DeepEqual(got, want) {
				t.Fatalf("limit %d: listed %v; want %v", limit, got, want)
			}
		}
		since, before, updated := at(10), at(30), at(50)
		for _, tc := range []struct {
			name string
			f    query.Filters
			want []string
		}{
			{"status", query.Filters{Status: string(orders.Refunded)}, []string{all[0].ID}},
			{"student", query.Filters{StudentID: s2}, []string{all[3].ID, all[1].ID}},
			{"created since and before", query.Filters{CreatedSince: &since, CreatedBefore: &before}, []string{all[2].ID, all[1].ID}},
			{"updated since", query.Filters{UpdatedSince: &updated}, []string{all[0].ID}},
		} {
			if got := ids(t, ws, tc.f, 1); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%s: listed %v; want %v", tc.name, got, tc.want)
			}
		}
		p, err := a.Reads.List(ctx, ws, query.Filters{StudentID: s1}, platform.PageRequest{Limit: 10})
		if err != nil || len(p.Items) != 3 || !reflect.DeepEqual(p.Items[2], all[0]) {
			t.Fatalf("listed orders read whole: %+v, %v; want last %+v", p.Items, err, all[0])
		}
		if got := ids(t, a.NewWorkspace(t), query.Filters{}, 3); len(got) != 0 {
			t.Fatalf("empty workspace lists %v", got)
		}
	})

	t.Run("get shows the whole order in its workspace only", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		o := newOrder(t, a, ws, a.NewStudent(t, ws), "get", 0, a.courses(t, ws, 2)...)
		mustAddOrder(t, a, o)
		if got, err := a.Reads.Get(ctx, ws, o.ID); err != nil || !reflect.DeepEqual(got, o) {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, o)
		}
		_, err := a.Reads.Get(ctx, other, o.ID)
		wantKind(t, err, kernel.KindNotFound, "")
	})

	t.Run("first activity is the earliest payment or refund, any workspace", func(t *testing.T) {
		wantEarliest(t, a.Published.FirstActivity, func() time.Time {
			ws := a.NewWorkspace(t)
			o := newOrder(t, a, ws, a.NewStudent(t, ws), "old", -600, a.courses(t, ws, 1)...)
			mustAddOrder(t, a, o)
			if _, err := o.Refund(nil, at(-900)); err != nil { // a refund stamped first (replayed history) counts
				t.Fatal(err)
			}
			mustUpdateOrder(t, a, o)
			return at(-900)
		})
	})
}
