package orders

import (
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func field(err error) string {
	if e, ok := err.(*kernel.Error); ok && e.Kind == kernel.KindInvalid {
		return e.Field
	}
	return "not invalid: " + err.Error()
}

func TestCurrency(t *testing.T) {
	for _, ok := range []string{"usd", "eur", "jpy", "gbp", "chf"} {
		if err := ValidateCurrency(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "USD", "Usd", "us", "usdd", "xyz", "xau", "xts", "u d", " usd"} {
		if err := ValidateCurrency(bad); err == nil || field(err) != "currency" {
			t.Errorf("%q accepted or wrong field: %v", bad, err)
		}
	}
}

func TestNewPaidValidatesItems(t *testing.T) {
	item := func(id string, amount int64) Item { return Item{CourseID: id, Amount: amount} }
	cases := []struct {
		items []Item
		field string
	}{
		{nil, "items"},
		{make([]Item, MaxItems+1), "items"},
		{[]Item{item("a", 1), item("a", 2)}, "items[1].courseId"},
		{[]Item{item("", 1)}, "items[0].courseId"},
		{[]Item{item("a", -1)}, "items[0].amount"},
		{[]Item{item("a", 1), item("b", MaxItemAmount+1)}, "items[1].amount"},
	}
	for _, c := range cases {
		if _, err := NewPaid("ord_1", "org_1", "stu_1", "usd", c.items, "R-000001", t0); err == nil || field(err) != c.field {
			t.Errorf("items %v: %v, want field %s", c.items, err, c.field)
		}
	}
	o, err := NewPaid("ord_1", "org_1", "stu_1", "usd", []Item{item("a", 4900), item("b", 0)}, "R-000001", t0)
	if err != nil || o.Amount != 4900 || o.Status != Paid || len(o.History) != 1 || o.History[0].Amount != 4900 {
		t.Fatalf("order %+v, %v", o, err)
	}
}

func TestRefunds(t *testing.T) {
	o, _ := NewPaid("ord_1", "org_1", "stu_1", "usd", []Item{{CourseID: "a", Amount: 1000}}, "R-000001", t0)
	o.Grant("a", "enr_1", t0)
	n := func(v int64) *int64 { return &v }
	for _, bad := range []*int64{n(0), n(-5), n(1001)} {
		if _, err := o.Refund(bad, t0); err == nil || field(err) != "amount" {
			t.Errorf("refund %d: %v", *bad, err)
		}
	}
	t1 := t0.Add(time.Hour)
	if _, err := o.Refund(n(300), t1); err != nil || o.Status != PartiallyRefunded || o.AmountRefunded != 300 || o.RefundedAt != nil || !o.UpdatedAt.Equal(t1) {
		t.Fatalf("partial: %+v %v", o, err)
	}
	if ids := o.RevokeAll(t1); len(ids) != 1 {
		t.Fatalf("revoke %v", ids)
	}
	o.Entitlements[0].RevokedAt = nil
	e, err := o.Refund(nil, t1)
	if err != nil || e.Amount != 700 || e.Seq != 3 || o.Status != Refunded || o.AmountRefunded != 1000 || o.RefundedAt == nil {
		t.Fatalf("full: %+v %+v %v", e, o, err)
	}
	if _, err := o.Refund(nil, t1); err == nil || field(err) != "amount" {
		t.Fatalf("refund of a refunded order: %v", err)
	}
	if ids := o.RevokeAll(t1); len(ids) != 1 || o.RevokeAll(t1) != nil {
		t.Fatal("RevokeAll must revoke once")
	}
	if ReceiptNumber(1) != "R-000001" || ReceiptNumber(1234567) != "R-1234567" {
		t.Fatal("receipt format")
	}
}
