package tests

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// An enrollment revoked outside its order (by an operator) shows on the order's
// entitlement, through the orders' reaction to enrollment.revoked.
func TestOrderEntitlementFollowsADirectRevocation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		a := env.CreatePublishedCourse(t, ws, "A")
		b := env.CreatePublishedCourse(t, ws, "B")
		student := env.CreateStudent(t, ws, "buyer@example.com")
		order := env.PlaceOrder(t, ws, student, "usd", testenv.OrderItem{CourseID: a, Amount: 1000}, testenv.OrderItem{CourseID: b, Amount: 2000})
		if len(order.Entitlements) != 2 {
			t.Fatalf("entitlements %+v", order.Entitlements)
		}
		revokedEnrollment := order.Entitlements[0].EnrollmentID

		env.Clock.Advance(time.Hour)
		revokedAt := env.Clock.Now()
		env.RevokeEnrollment(t, ws, revokedEnrollment).Expect(t, http.StatusOK)
		env.WaitForConsumers(t)

		get := func() testenv.Order {
			var o testenv.Order
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s", ws, order.ID)).Expect(t, http.StatusOK).Decode(t, &o)
			return o
		}
		o := get()
		if o.Status != "paid" || o.Entitlements[1].RevokedAt != nil || o.Entitlements[0].RevokedAt == nil {
			t.Fatalf("after a direct revocation: %+v", o.Entitlements)
		}
		if at, _ := time.Parse(time.RFC3339Nano, *o.Entitlements[0].RevokedAt); !at.Equal(revokedAt) {
			t.Fatalf("entitlement revokedAt %s, want %s", *o.Entitlements[0].RevokedAt, revokedAt)
		}
		if at, _ := time.Parse(time.RFC3339Nano, o.UpdatedAt); !at.Equal(revokedAt) {
			t.Fatalf("order updatedAt %s, want %s", o.UpdatedAt, revokedAt)
		}

		// The full refund revokes what is left and keeps the earlier revocation's time.
		env.Clock.Advance(time.Hour)
		env.PostRefund(t, ws, order.ID, 3000).Expect(t, http.StatusOK)
		env.WaitForConsumers(t)
		o = get()
		if o.Status != "refunded" || o.Entitlements[1].RevokedAt == nil {
			t.Fatalf("after the full refund: %+v", o.Entitlements)
		}
		if at, _ := time.Parse(time.RFC3339Nano, *o.Entitlements[0].RevokedAt); !at.Equal(revokedAt) {
			t.Fatalf("the refund moved the earlier revocation to %s", *o.Entitlements[0].RevokedAt)
		}
	})
}

// A course bought twice shares one enrollment: refunding one purchase keeps the access
// the other still pays for; refunding both revokes it.
func TestRefundKeepsAccessAnotherPurchaseGrants(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		course := env.CreatePublishedCourse(t, ws, "Twice")
		student := env.CreateStudent(t, ws, "twice@example.com")
		first := env.PlaceOrder(t, ws, student, "usd", testenv.OrderItem{CourseID: course, Amount: 1000})
		second := env.PlaceOrder(t, ws, student, "eur", testenv.OrderItem{CourseID: course, Amount: 900})
		enrollment := first.Entitlements[0].EnrollmentID
		if second.Entitlements[0].EnrollmentID != enrollment {
			t.Fatalf("the second purchase did not reuse the enrollment: %s vs %s", second.Entitlements[0].EnrollmentID, enrollment)
		}
		status := func() string {
			var e struct{ Status string }
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments/%s", ws, enrollment)).Expect(t, http.StatusOK).Decode(t, &e)
			return e.Status
		}

		env.PostRefund(t, ws, second.ID, 900).Expect(t, http.StatusOK)
		env.WaitForConsumers(t)
		if got := status(); got != "active" {
			t.Fatalf("after refunding one of two purchases the enrollment is %s", got)
		}
		if n := len(env.OutboxEventsOfType(t, "enrollment.revoked")); n != 0 {
			t.Fatalf("%d enrollment.revoked events for a refund that keeps access", n)
		}
		var o testenv.Order
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s", ws, first.ID)).Decode(t, &o)
		if o.Entitlements[0].RevokedAt != nil || o.UpdatedAt != first.UpdatedAt {
			t.Fatalf("the other purchase changed: %+v", o)
		}

		env.PostRefund(t, ws, first.ID, 1000).Expect(t, http.StatusOK)
		if got := status(); got != "revoked" {
			t.Fatalf("after refunding both purchases the enrollment is %s", got)
		}
	})
}
