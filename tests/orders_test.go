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

	"github.com/google/go-cmp/cmp"

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

// orderItemView and orderHistoryView are an order's items and history entries without
// their JSON tags, so that a test can write the expected ones as literals.
type (
	orderItemView struct {
		CourseID, Title string
		Amount          int64
	}
	orderHistoryView struct {
		Type   string
		Amount int64
		At     string
	}
	refundRaceView struct {
		Succeeded      int
		Refunded       int64
		HistoryEntries int
		Status         string
	}
)

func itemsOf(o testenv.Order) []orderItemView {
	var v []orderItemView
	for _, it := range o.Items {
		v = append(v, orderItemView(it))
	}
	return v
}

func historyOf(o testenv.Order) []orderHistoryView {
	var v []orderHistoryView
	for _, h := range o.History {
		v = append(v, orderHistoryView(h))
	}
	return v
}

func orderIDs(orders []testenv.Order) []string {
	var ids []string
	for _, o := range orders {
		ids = append(ids, o.ID)
	}
	return ids
}

func workspacesOf(evs []events.Envelope) []string {
	var ws []string
	for _, ev := range evs {
		ws = append(ws, ev.WorkspaceID)
	}
	return ws
}

func TestOrderPaidShapeListAndEvents(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:orders")
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics")
		c2 := env.CreatePublishedCourse(t, ws, "Ink Drawing")
		stu := env.CreateStudent(t, ws, "ada@example.com")

		o := env.PlaceOrder(t, ws, stu, "usd", testenv.OrderItem{CourseID: c1, Amount: 4900}, testenv.OrderItem{CourseID: c2, Amount: 2500})
		if !strings.HasPrefix(o.ID, "ord_") {
			t.Fatalf("order id %q, want ord_...", o.ID)
		}
		wantO := o // the service's ids and lists; the fields below are known
		wantO.StudentID, wantO.Status, wantO.Currency, wantO.Amount, wantO.AmountRefunded = stu, "paid", "usd", 7400, 0
		wantO.Receipt.Number, wantO.PaidAt, wantO.CreatedAt, wantO.UpdatedAt, wantO.RefundedAt = "R-000001", epochText, epochText, epochText, nil
		if diff := cmp.Diff(wantO, o); diff != "" {
			t.Fatalf("order (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]orderItemView{{c1, "Watercolor Basics", 4900}, {c2, "Ink Drawing", 2500}}, itemsOf(o)); diff != "" {
			t.Fatalf("items (-want +got):\n%s", diff)
		}
		if len(o.Entitlements) != 2 {
			t.Fatalf("entitlements %+v", o.Entitlements)
		}
		for i, e := range o.Entitlements {
			if !strings.HasPrefix(e.EnrollmentID, "enr_") {
				t.Fatalf("entitlement %d enrollment id %q, want enr_...", i, e.EnrollmentID)
			}
			wantE := e
			wantE.CourseID, wantE.GrantedAt, wantE.RevokedAt = o.Items[i].CourseID, epochText, nil
			if diff := cmp.Diff(wantE, e); diff != "" {
				t.Fatalf("entitlement %d (-want +got):\n%s", i, diff)
			}
			var en enrollmentJSON
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments/%s", ws, e.EnrollmentID)).Expect(t, http.StatusOK).Decode(t, &en)
			wantEn := en
			wantEn.Status, wantEn.Source, wantEn.StudentID, wantEn.CourseID = "active", "order", stu, e.CourseID
			if diff := cmp.Diff(wantEn, en); diff != "" {
				t.Fatalf("enrollment granted by the order (-want +got):\n%s", diff)
			}
		}
		if diff := cmp.Diff([]orderHistoryView{{"paid", 7400, epochText}}, historyOf(o)); diff != "" {
			t.Fatalf("history (-want +got):\n%s", diff)
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
		if diff := cmp.Diff(map[string]any{"refundedAt": nil, "amount": 7400.0}, map[string]any{"refundedAt": item["refundedAt"], "amount": item["amount"]}); diff != "" {
			t.Fatalf("raw order (-want +got):\n%s", diff)
		}
		var list orderList
		env.API(key).Get(t, "/api/v1/orders").Decode(t, &list)
		wantList := list
		wantList.Data, wantList.Pagination.HasMore, wantList.Pagination.Cursor = []testenv.Order{o}, false, nil
		if diff := cmp.Diff(wantList, list); diff != "" {
			t.Fatalf("list (-want +got):\n%s", diff)
		}

		// order.paid carries the order; enrollment.created one per course, source order.
		paid := env.OutboxEventsOfType(t, events.OrderPaid)
		if diff := cmp.Diff([]string{ws}, workspacesOf(paid)); diff != "" {
			t.Fatalf("order.paid events' workspaces (-want +got):\n%s", diff)
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
			wantEn := en
			wantEn.ID, wantEn.Source, wantEn.Status = o.Entitlements[i].EnrollmentID, "order", "active"
			if diff := cmp.Diff(wantEn, en); diff != "" {
				t.Fatalf("enrollment.created data (-want +got):\n%s", diff)
			}
		}

		// Receipt numbers follow each other in the workspace.
		o2 := env.PlaceOrder(t, ws, stu, "eur", testenv.OrderItem{CourseID: c1, Amount: 0})
		want2 := o2
		want2.Receipt.Number, want2.Amount, want2.Entitlements[0].EnrollmentID = "R-000002", 0, o.Entitlements[0].EnrollmentID
		if diff := cmp.Diff(want2, o2); diff != "" {
			t.Fatalf("second order (-want +got):\n%s", diff)
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
		wantP := p
		wantP.Status, wantP.AmountRefunded, wantP.Amount, wantP.RefundedAt = "partially_refunded", 2000, 7400, nil
		wantP.UpdatedAt, wantP.CreatedAt = "2026-11-21T11:00:00Z", epochText
		if diff := cmp.Diff(wantP, p); diff != "" {
			t.Fatalf("after a partial refund (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]orderHistoryView{{"paid", 7400, epochText}, {"refunded", 2000, "2026-11-21T11:00:00Z"}}, historyOf(p)); diff != "" {
			t.Fatalf("history (-want +got):\n%s", diff)
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
		atText := at
		wantF := f
		wantF.Status, wantF.AmountRefunded, wantF.RefundedAt, wantF.UpdatedAt = "refunded", 7400, &atText, at
		if diff := cmp.Diff(wantF, f); diff != "" {
			t.Fatalf("after the full refund (-want +got):\n%s", diff)
		}
		wantHistory := []orderHistoryView{{"paid", 7400, epochText}, {"refunded", 2000, "2026-11-21T11:00:00Z"}, {"refunded", 5400, at}}
		if diff := cmp.Diff(wantHistory, historyOf(f)); diff != "" {
			t.Fatalf("history (-want +got):\n%s", diff)
		}
		for _, e := range f.Entitlements {
			wantE := e
			wantE.RevokedAt, wantE.GrantedAt = &atText, epochText
			if diff := cmp.Diff(wantE, e); diff != "" {
				t.Fatalf("entitlement not revoked (-want +got):\n%s", diff)
			}
			var en enrollmentJSON
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments/%s", ws, e.EnrollmentID)).Decode(t, &en)
			wantEn := en
			wantEn.Status, wantEn.RevokedAt = "revoked", &atText
			if diff := cmp.Diff(wantEn, en); diff != "" {
				t.Fatalf("enrollment after the full refund (-want +got):\n%s", diff)
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
		if diff := cmp.Diff([]testenv.Order{p, f}, []testenv.Order{d1, d2}); diff != "" {
			t.Fatalf("order.refunded data (-want +got):\n%s", diff)
		}
		revoked := env.OutboxEventsOfType(t, events.EnrollmentRevoked)
		if len(revoked) != 2 {
			t.Fatalf("%d enrollment.revoked events, want 2", len(revoked))
		}
		for i, ev := range revoked {
			var en enrollmentJSON
			_ = json.Unmarshal(ev.Data, &en)
			wantEn := en
			wantEn.ID, wantEn.Status = f.Entitlements[i].EnrollmentID, "revoked"
			if diff := cmp.Diff(wantEn, en); diff != "" {
				t.Fatalf("enrollment.revoked data (-want +got):\n%s", diff)
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
		if diff := cmp.Diff(refundRaceView{3, 900, 4, "partially_refunded"}, refundRaceView{okCount, got.AmountRefunded, len(got.History), got.Status}); diff != "" {
			t.Fatalf("refunds succeeded, refunded, history entries, status (-want +got):\n%s", diff)
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
		if diff := cmp.Diff([]string{orderB.ID}, orderIDs(l.Data)); diff != "" {
			t.Fatalf("B sees (-want +got):\n%s", diff)
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
