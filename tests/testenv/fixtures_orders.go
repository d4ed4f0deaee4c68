package testenv

import (
	"fmt"
	"net/http"
	"testing"
)

// Fixtures of the orders, live-session and certificate suites, through the operator API.

// OrderItem is one course of an order placed by PlaceOrder.
type OrderItem struct {
	CourseID string `json:"courseId"`
	Amount   int64  `json:"amount"`
}

// Order is the order object as the APIs show it.
type Order struct {
	ID             string `json:"id"`
	StudentID      string `json:"studentId"`
	Status         string `json:"status"`
	Currency       string `json:"currency"`
	Amount         int64  `json:"amount"`
	AmountRefunded int64  `json:"amountRefunded"`
	Items          []struct {
		CourseID string `json:"courseId"`
		Title    string `json:"title"`
		Amount   int64  `json:"amount"`
	} `json:"items"`
	Entitlements []struct {
		CourseID     string  `json:"courseId"`
		EnrollmentID string  `json:"enrollmentId"`
		GrantedAt    string  `json:"grantedAt"`
		RevokedAt    *string `json:"revokedAt"`
	} `json:"entitlements"`
	Receipt struct {
		Number string `json:"number"`
	} `json:"receipt"`
	History []struct {
		Type   string `json:"type"`
		Amount int64  `json:"amount"`
		At     string `json:"at"`
	} `json:"history"`
	PaidAt     string  `json:"paidAt"`
	RefundedAt *string `json:"refundedAt"`
	CreatedAt  string  `json:"createdAt"`
	UpdatedAt  string  `json:"updatedAt"`
}

// PostOrder sends POST W/orders and returns the raw response.
func (e *Env) PostOrder(t testing.TB, ws, studentID, currency string, items ...OrderItem) Response {
	t.Helper()
	return e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders", ws),
		map[string]any{"studentId": studentID, "currency": currency, "items": items})
}

// PlaceOrder records a paid order and returns it.
func (e *Env) PlaceOrder(t testing.TB, ws, studentID, currency string, items ...OrderItem) Order {
	t.Helper()
	var o Order
	e.PostOrder(t, ws, studentID, currency, items...).Expect(t, http.StatusCreated).Decode(t, &o)
	return o
}

// PostRefund sends POST W/orders/{id}/refunds; amount 0 sends no body (refund what is left).
func (e *Env) PostRefund(t testing.TB, ws, orderID string, amount int64) Response {
	t.Helper()
	var body any
	if amount != 0 {
		body = map[string]int64{"amount": amount}
	}
	return e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/orders/%s/refunds", ws, orderID), body)
}

// CompleteCourse completes every lesson of the course for the student (who must be
// enrolled), which completes the enrollment.
func (e *Env) CompleteCourse(t testing.TB, ws, studentID, courseID string) {
	t.Helper()
	var c struct {
		Modules []struct {
			Lessons []struct{ ID string }
		}
	}
	e.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s", ws, courseID)).Expect(t, http.StatusOK).Decode(t, &c)
	for _, m := range c.Modules {
		for _, l := range m.Lessons {
			e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/progress", ws), map[string]string{"studentId": studentID, "lessonId": l.ID}).
				Expect(t, http.StatusCreated)
		}
	}
}
