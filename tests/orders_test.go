package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

type orderList struct {
	Data       []testenv.Order `json:"data"`
	Pagination struct {
		Cursor  *string `json:"cursor"`
		HasMore bool    `json:"has_more"`
	} `json:"pagination"`
}

type enrollmentJSON struct {
	ID          string  `json:"id"`
	StudentID   string  `json:"studentId"`
	CourseID    string  `json:"courseId"`
	Status      string  `json:"status"`
	Source      string  `json:"source"`
	RevokedAt   *string `json:"revokedAt"`
	CompletedAt *string `json:"completedAt"`
}

const epochText = "2026-11-21T10:00:00Z"

func TestOrderPaidShapeListAndEvents(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:orders")
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		c2 := env.CreatePublishedCourse(t, ws, "Ink Drawing")
		stu := env.CreateStudent(t, ws, "ada@example.com")

		o := env.PlaceOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: c1, Amount: 4900}, testenv.OrderItem{CourseID: c2, Amount: 2500})
		if !strings.HasPrefix(o.ID, "ord_") || o.StudentID != stu || o.Status != "paid" || o.Currency != "usd" ||
			o.Amount != 7400 || o.AmountRefunded != 0 || o.Receipt.Number != "R-000001" ||
			o.PaidAt != epochText || o.CreatedAt != epochText || o.UpdatedAt != epochText || o.RefundedAt != nil {
			t.Fatalf("order %+v", o)
		}
		if len(o.Items) != 2 || o.Items[0].CourseID != c1 || o.Items[0].Title != "Watercolor Basics" || o.Items[0].Amount != 4900 ||
			o.Items[1].CourseID != c2 || o.Items[1].Title != "Ink Drawing" || o.Items[1].Amount != 2500 {
			t.Fatalf("items %+v", o.Items)
		}
		if len(o.Entitlements) != 2 {
			t.Fatalf("entitlements %+v", o.Entitlements)
		}
		for i, e := range o.Entitlements {
			if e.CourseID != o.Items[i].CourseID || !strings.HasPrefix(e.EnrollmentID, "enr_") || e.GrantedAt != epochText || e.RevokedAt != nil {
				t.Fatalf("entitlement %d %+v", i, e)
			}
			var en enrollmentJSON
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments/%s", ws, e.EnrollmentID)).Expect(t, http.StatusOK).Decode(t, &en)
			if en.Status != "active" || en.Source != "order" || en.StudentID != stu || en.CourseID != e.CourseID {
				t.Fatalf("enrollment granted by the order %+v", en)
			}
		}
		if len(o.History) != 1 || o.History[0].Type != "paid" || o.History[0].Amount != 7400 || o.History[0].At != epochText {
			t.Fatalf("history %+v", o.History)
		}

		// The public list shows exactly the same object, with exactly the documented fields.
		raw := env.API(key).Get(t, "/api/v1/orders").Expect(t, http.StatusOK).JSON(t)
		item := raw["data"].([]any)[0].(map[string]any)
		var keys []string
		for k := range item {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		want := []string{"amount", "amountRefunded", "createdAt", "currency", "entitlements", "history", "id", "items", "livemode", "paidAt",
			"receipt", "refundedAt", "status", "studentId", "updatedAt"}
		if !reflect.DeepEqual(keys, want) {
			t.Fatalf("order fields %v, want %v", keys, want)
		}
		if item["refundedAt"] != nil || item["amount"].(float64) != 7400 {
			t.Fatalf("raw order %v", item)
		}
		var list orderList
		env.API(key).Get(t, "/api/v1/orders").Decode(t, &list)
		if len(list.Data) != 1 || !reflect.DeepEqual(list.Data[0], o) || list.Pagination.HasMore || list.Pagination.Cursor != nil {
			t.Fatalf("list %+v, want [%+v]", list, o)
		}

		// order.paid carries the order; enrollment.created one per course, source order.
		paid := env.OutboxEventsOfType(t, events.OrderPaid)
		if len(paid) != 1 || paid[0].WorkspaceID != ws {
			t.Fatalf("order.paid events %+v", paid)
		}
		var data testenv.Order
		if err := json.Unmarshal(paid[0].Data, &data); err != nil || !reflect.DeepEqual(data, o) {
			t.Fatalf("order.paid data %s, want %+v (%v)", paid[0].Data, o, err)
		}
		created := env.OutboxEventsOfType(t, events.EnrollmentCreated)
		if len(created) != 2 {
			t.Fatalf("enrollment.created events %+v", created)
		}
		for i, ev := range created {
			var en enrollmentJSON
			_ = json.Unmarshal(ev.Data, &en)
			if en.ID != o.Entitlements[i].EnrollmentID || en.Source != "order" || en.Status != "active" {
				t.Fatalf("enrollment.created data %s", ev.Data)
			}
		}

		// Receipt numbers follow each other in the workspace.
		o2 := env.PlaceOrder(t, ws, stu, "eur", testenv.OrderItem{CourseID: c1, Amount: 0})
		if o2.Receipt.Number != "R-000002" || o2.Amount != 0 || o2.Entitlements[0].EnrollmentID != o.Entitlements[0].EnrollmentID {
			t.Fatalf("second order %+v", o2)
		}
		// The student was already enrolled: no second enrollment.created.
		if n := len(env.OutboxEventsOfType(t, events.EnrollmentCreated)); n != 2 {
			t.Fatalf("%d enrollment.created events after re-buying an owned course, want 2", n)
		}
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s", ws, o.ID)).Expect(t, http.StatusOK)

		_, noScope := env.CreateKey(t, ws, "read:courses")
		env.API(noScope).Get(t, "/api/v1/orders").ExpectError(t, http.StatusForbidden, "forbidden")
	})
}

func TestOrderPartialThenFullRefund(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		c2 := env.CreatePublishedCourse(t, ws, "Ink Drawing")
		stu := env.CreateStudent(t, ws, "ada@example.com")
		o := env.PlaceOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: c1, Amount: 4900}, testenv.OrderItem{CourseID: c2, Amount: 2500})

		env.Clock.Set(testenv.Epoch.Add(time.Hour))
		var p testenv.Order
		env.PostRefund(t, ws, o.ID, 2000).Expect(t, http.StatusOK).Decode(t, &p)
		if p.Status != "partially_refunded" || p.AmountRefunded != 2000 || p.Amount != 7400 || p.RefundedAt != nil ||
			p.UpdatedAt != "2026-11-21T11:00:00Z" || p.CreatedAt != epochText {
			t.Fatalf("after a partial refund %+v", p)
		}
		if len(p.History) != 2 || p.History[1].Type != "refunded" || p.History[1].Amount != 2000 || p.History[1].At != "2026-11-21T11:00:00Z" {
			t.Fatalf("history %+v", p.History)
		}
		for _, e := range p.Entitlements {
			if e.RevokedAt != nil {
				t.Fatalf("a partial refund revoked %+v", e)
			}
		}

		// More than what is left, zero, a wrong type: 422 naming amount; nothing changes.
		env.PostRefund(t, ws, o.ID, 5401).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		mustNameParam(t, env.PostRefund(t, ws, o.ID, 5401), "amount")
		mustNameParam(t, env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s/refunds", ws, o.ID), map[string]any{"amount": 0}), "amount")
		mustNameParam(t, env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s/refunds", ws, o.ID), map[string]any{"amount": 1.5}), "amount")
		mustNameParam(t, env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s/refunds", ws, o.ID), map[string]any{"amount": 10, "reason": "x"}), "reason")
		env.PostRefund(t, ws, "ord_unknown", 100).ExpectError(t, http.StatusNotFound, "not_found")

		env.Clock.Set(testenv.Epoch.Add(2 * time.Hour))
		var f testenv.Order
		env.PostRefund(t, ws, o.ID, 0).Expect(t, http.StatusOK).Decode(t, &f) // no body: what is left
		const at = "2026-11-21T12:00:00Z"
		if f.Status != "refunded" || f.AmountRefunded != 7400 || f.RefundedAt == nil || *f.RefundedAt != at || f.UpdatedAt != at {
			t.Fatalf("after the full refund %+v", f)
		}
		if len(f.History) != 3 || f.History[2].Type != "refunded" || f.History[2].Amount != 5400 || f.History[2].At != at {
			t.Fatalf("history %+v", f.History)
		}
		for _, e := range f.Entitlements {
			if e.RevokedAt == nil || *e.RevokedAt != at || e.GrantedAt != epochText {
				t.Fatalf("entitlement not revoked %+v", e)
			}
			var en enrollmentJSON
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments/%s", ws, e.EnrollmentID)).Decode(t, &en)
			if en.Status != "revoked" || en.RevokedAt == nil || *en.RevokedAt != at {
				t.Fatalf("enrollment after the full refund %+v", en)
			}
		}
		mustNameParam(t, env.PostRefund(t, ws, o.ID, 0), "amount")
		mustNameParam(t, env.PostRefund(t, ws, o.ID, 1), "amount")

		refunded := env.OutboxEventsOfType(t, events.OrderRefunded)
		if len(refunded) != 2 {
			t.Fatalf("%d order.refunded events, want 2", len(refunded))
		}
		var d1, d2 testenv.Order
		_ = json.Unmarshal(refunded[0].Data, &d1)
		_ = json.Unmarshal(refunded[1].Data, &d2)
		if !reflect.DeepEqual(d1, p) || !reflect.DeepEqual(d2, f) {
			t.Fatalf("order.refunded data %s / %s", refunded[0].Data, refunded[1].Data)
		}
		revoked := env.OutboxEventsOfType(t, events.EnrollmentRevoked)
		if len(revoked) != 2 {
			t.Fatalf("%d enrollment.revoked events, want 2", len(revoked))
		}
		for i, ev := range revoked {
			var en enrollmentJSON
			_ = json.Unmarshal(ev.Data, &en)
			if en.ID != f.Entitlements[i].EnrollmentID || en.Status != "revoked" {
				t.Fatalf("enrollment.revoked data %s", ev.Data)
			}
		}
		// The stream order: the revocations, then the refund that caused them.
		all := env.OutboxEvents(t)
		if last := all[len(all)-1]; last.Type != events.OrderRefunded {
			t.Fatalf("last event %s, want order.refunded", last.Type)
		}
	})
}

func TestOrderValidation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		draft := env.CreateCourse(t, ws, "Draft")
		stu := env.CreateStudent(t, ws, "ada@example.com")
		ok := testenv.OrderItem{CourseID: c1, Amount: 100}
		path := fmt.Sprintf("/internal/v1/workspaces/%s/orders", ws)

		mustNameParam(t, env.PostOrder(t, ws, stu, "USD", ok), "currency")
		mustNameParam(t, env.PostOrder(t, ws, stu, "xyz", ok), "currency")
		mustNameParam(t, env.PostOrder(t, ws, stu, "usd"), "items")
		mustNameParam(t, env.PostOrder(t, ws, stu, "usd", ok, ok), "items[1].courseId")
		mustNameParam(t, env.PostOrder(t, ws, stu, "usd", ok, testenv.OrderItem{CourseID: draft, Amount: 1}), "items[1].courseId")
		mustNameParam(t, env.PostOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: "crs_nope", Amount: 1}), "items[0].courseId")
		mustNameParam(t, env.PostOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: c1, Amount: -1}), "items[0].amount")
		mustNameParam(t, env.PostOrder(t, ws, "stu_nope", "usd", ok), "studentId")
		mustNameParam(t, env.Admin().Post(t, path, map[string]any{"studentId": stu, "currency": "usd", "items": []map[string]any{{"courseId": c1}}}), "items[0].amount")
		mustNameParam(t, env.Admin().Post(t, path, map[string]any{"studentId": stu, "currency": "usd", "items": []map[string]any{{"courseId": c1, "amount": 9.99}}}), "items[0].amount") // the element named, as validation names it
		many := make([]testenv.OrderItem, 51)
		for i := range many {
			many[i] = testenv.OrderItem{CourseID: fmt.Sprintf("crs_%d", i), Amount: 1}
		}
		mustNameParam(t, env.PostOrder(t, ws, stu, "usd", many...), "items")
		mustNameParam(t, env.Admin().Post(t, path, map[string]any{"currency": "usd", "items": []testenv.OrderItem{ok}}), "studentId")
		env.Admin().Post(t, "/internal/v1/workspaces/org_nope/orders", map[string]any{"studentId": stu, "currency": "usd", "items": []testenv.OrderItem{ok}}).
			ExpectError(t, http.StatusNotFound, "not_found")

		// Nothing of the failed attempts remains: no order, no enrollment, no event, no receipt number used.
		for _, typ := range []events.Type{events.OrderPaid, events.EnrollmentCreated} {
			if evs := env.OutboxEventsOfType(t, typ); len(evs) != 0 {
				t.Fatalf("failed orders left %d %s events", len(evs), typ)
			}
		}
		if o := env.PlaceOrder(t, ws, stu, "usd", ok); o.Receipt.Number != "R-000001" {
			t.Fatalf("first successful order has receipt %s", o.Receipt.Number)
		}
	})
}

func TestConcurrentRefundsNeverExceedTheAmount(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		stu := env.CreateStudent(t, ws, "ada@example.com")
		o := env.PlaceOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: c1, Amount: 1000})

		const n = 12
		statuses := make([]int, n)
		contracttest.Parallel(n, func(i int) error {
			statuses[i] = env.PostRefund(t, ws, o.ID, 300).Status
			return nil
		})
		okCount := 0
		for _, s := range statuses {
			switch s {
			case http.StatusOK:
				okCount++
			case http.StatusUnprocessableEntity:
			default:
				t.Fatalf("refund answered %d; all statuses %v", s, statuses)
			}
		}
		var got testenv.Order
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s", ws, o.ID)).Decode(t, &got)
		if okCount != 3 || got.AmountRefunded != 900 || len(got.History) != 4 || got.Status != "partially_refunded" {
			t.Fatalf("%d refunds succeeded, order %+v; want 3 and 900 refunded", okCount, got)
		}
		if n := len(env.OutboxEventsOfType(t, events.OrderRefunded)); n != 3 {
			t.Fatalf("%d order.refunded events, want 3", n)
		}
	})
}

func TestConcurrentOrdersGetDistinctReceipts(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		stu := env.CreateStudent(t, ws, "ada@example.com")
		const n = 10
		receipts := make([]string, n)
		contracttest.Parallel(n, func(i int) error {
			r := env.PostOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: c1, Amount: 100})
			var o testenv.Order
			if r.Status == http.StatusCreated {
				_ = json.Unmarshal(r.Body, &o)
			}
			receipts[i] = fmt.Sprintf("%d %s", r.Status, o.Receipt.Number)
			return nil
		})
		sort.Strings(receipts)
		for i, r := range receipts {
			if want := fmt.Sprintf("201 R-%06d", i+1); r != want {
				t.Fatalf("receipts %v, want 201 R-000001 .. R-%06d", receipts, n)
			}
		}
		if got := len(env.OutboxEventsOfType(t, events.EnrollmentCreated)); got != 1 {
			t.Fatalf("%d enrollment.created for one student and course, want 1", got)
		}
	})
}

func TestOrderListFilters(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:orders")
		api := env.API(key)
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		ada := env.CreateStudent(t, ws, "ada@example.com")
		bob := env.CreateStudent(t, ws, "bob@example.com")
		item := testenv.OrderItem{CourseID: c1, Amount: 1000}

		day := func(d int) time.Time { return testenv.Epoch.AddDate(0, 0, d) }
		env.Clock.Set(day(0))
		paid := env.PlaceOrder(t, ws, ada, "usd", item)
		env.Clock.Set(day(1))
		partial := env.PlaceOrder(t, ws, bob, "usd", item)
		env.Clock.Set(day(2))
		full := env.PlaceOrder(t, ws, ada, "eur", item)
		env.Clock.Set(day(3))
		env.PostRefund(t, ws, partial.ID, 100).Expect(t, http.StatusOK)
		env.PostRefund(t, ws, full.ID, 0).Expect(t, http.StatusOK)

		ids := func(query string) []string {
			t.Helper()
			var l orderList
			api.Get(t, "/api/v1/orders"+query).Expect(t, http.StatusOK).Decode(t, &l)
			out := []string{}
			for _, o := range l.Data {
				out = append(out, o.ID)
			}
			return out
		}
		check := func(query string, want ...string) {
			t.Helper()
			if want == nil {
				want = []string{}
			}
			if got := ids(query); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s gives %v, want %v", query, got, want)
			}
		}
		q := func(pairs ...string) string {
			v := url.Values{}
			for i := 0; i < len(pairs); i += 2 {
				v.Set(pairs[i], pairs[i+1])
			}
			return "?" + v.Encode()
		}
		check("", full.ID, partial.ID, paid.ID)
		check(q("status", "paid"), paid.ID)
		check(q("status", "partially_refunded"), partial.ID)
		check(q("status", "refunded"), full.ID)
		check(q("studentId", ada), full.ID, paid.ID)
		check(q("studentId", "stu_unknown"))
		check(q("studentId", ada, "status", "paid"), paid.ID)
		check(q("createdSince", day(1).Format(time.RFC3339)), full.ID, partial.ID)
		check(q("createdBefore", day(1).Format(time.RFC3339)), paid.ID)
		check(q("createdSince", day(1).Format(time.RFC3339), "createdBefore", day(2).Format(time.RFC3339)), partial.ID)
		check(q("createdSince", "2026-11-22T12:00:00+02:00"), full.ID, partial.ID) // offsets are honoured
		check(q("updatedSince", day(3).Format(time.RFC3339)), full.ID, partial.ID)
		check(q("updatedSince", day(4).Format(time.RFC3339)))

		for _, bad := range []struct{ query, param string }{
			{q("status", "open"), "status"},
			{q("status", ""), "status"},
			{q("studentId", ""), "studentId"},
			{q("createdSince", "2026-11-21"), "createdSince"},
			{q("createdBefore", "yesterday"), "createdBefore"},
			{q("updatedSince", "2026-13-01T00:00:00Z"), "updatedSince"},
			{q("createdSince", day(2).Format(time.RFC3339), "createdBefore", day(1).Format(time.RFC3339)), "createdBefore"},
			{q("state", "paid"), "state"},
			{q("limit", "0"), "limit"},
		} {
			mustNameParam(t, api.Get(t, "/api/v1/orders"+bad.query), bad.param)
		}
	})
}

func TestOrderPaginationAndIsolation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		wsA := env.CreateWorkspace(t, "A")
		wsB := env.CreateWorkspace(t, "B")
		_, keyA := env.CreateKey(t, wsA, "read:orders")
		_, keyB := env.CreateKey(t, wsB, "read:orders")
		courseA := env.CreatePublishedCourse(t, wsA, "A course")
		courseB := env.CreatePublishedCourse(t, wsB, "B course")
		stuA := env.CreateStudent(t, wsA, "a@example.com")
		stuB := env.CreateStudent(t, wsB, "b@example.com")

		// Seven orders in A, some sharing a timestamp (ties are broken by id); one in B.
		var want []string
		for i := range 7 {
			env.Clock.Set(testenv.Epoch.Add(time.Duration(i/2) * time.Minute))
			want = append(want, env.PlaceOrder(t, wsA, stuA, "usd", testenv.OrderItem{CourseID: courseA, Amount: int64(100 + i)}).ID)
		}
		orderB := env.PlaceOrder(t, wsB, stuB, "usd", testenv.OrderItem{CourseID: courseB, Amount: 1})
		if orderB.Receipt.Number != "R-000001" {
			t.Fatalf("B's first receipt is %s: numbering must be per workspace", orderB.Receipt.Number)
		}
		sort.Sort(sort.Reverse(sort.StringSlice(want))) // ids follow creation order

		var got []string
		seen := map[string]bool{}
		path := "/api/v1/orders?limit=3"
		var lastCursor string
		for pages := 0; ; pages++ {
			var l orderList
			env.API(keyA).Get(t, path).Expect(t, http.StatusOK).Decode(t, &l)
			for _, o := range l.Data {
				if seen[o.ID] {
					t.Fatalf("order %s on two pages", o.ID)
				}
				seen[o.ID] = true
				got = append(got, o.ID)
			}
			if !l.Pagination.HasMore {
				if l.Pagination.Cursor != nil || pages != 2 {
					t.Fatalf("last page %d: %+v", pages, l.Pagination)
				}
				break
			}
			lastCursor = *l.Pagination.Cursor
			path = "/api/v1/orders?limit=3&cursor=" + url.QueryEscape(lastCursor)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("pages give %v, want %v", got, want)
		}

		// B never sees A's orders, nor A's cursors; a cursor is bound to its filters.
		var l orderList
		env.API(keyB).Get(t, "/api/v1/orders").Decode(t, &l)
		if len(l.Data) != 1 || l.Data[0].ID != orderB.ID {
			t.Fatalf("B sees %+v", l.Data)
		}
		mustNameParam(t, env.API(keyB).Get(t, "/api/v1/orders?cursor="+url.QueryEscape(lastCursor)), "cursor")
		mustNameParam(t, env.API(keyA).Get(t, "/api/v1/orders?status=paid&cursor="+url.QueryEscape(lastCursor)), "cursor")
		env.API(keyB).Get(t, "/api/v1/orders?studentId="+stuA).Decode(t, &l)
		if len(l.Data) != 0 {
			t.Fatalf("B filtering on A's student sees %+v", l.Data)
		}

		// References in bodies resolve in the path's workspace only.
		mustNameParam(t, env.PostOrder(t, wsA, stuA, "usd", testenv.OrderItem{CourseID: courseB, Amount: 1}), "items[0].courseId")
		mustNameParam(t, env.PostOrder(t, wsA, stuB, "usd", testenv.OrderItem{CourseID: courseA, Amount: 1}), "studentId")
		env.PostRefund(t, wsB, want[0], 1).ExpectError(t, http.StatusNotFound, "not_found")
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s", wsB, want[0])).ExpectError(t, http.StatusNotFound, "not_found")
	})
}

// mustNameParam fails unless r is a 422 invalid_request naming param.
func mustNameParam(t *testing.T, r testenv.Response, param string) {
	t.Helper()
	r.ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
	var env struct {
		Error struct {
			Param string `json:"param"`
		} `json:"error"`
	}
	r.Decode(t, &env)
	if env.Error.Param != param {
		t.Fatalf("422 names %q, want %q: %s", env.Error.Param, param, r.Body)
	}
}
