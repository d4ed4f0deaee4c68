package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync/atomic"
	"testing"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// fanOutCases pin Dispatch.FanOut: one delivery per enabled endpoint of the workspace that
// wants the type, leased when asked, named by newID, a replay writing nothing, whatever
// the endpoints did since the last fan-out of the type.
func fanOutCases(t *testing.T, a WebhookAdapters) {
	ctx := context.Background()
	var n atomic.Int64
	newID := func() string { return fmt.Sprintf("evd_fan_%d", n.Add(1)) }
	fan := func(t *testing.T, ws, event, eventType, token string) []webhooks.Lease {
		t.Helper()
		f := webhooks.Fan{WorkspaceID: ws, EventID: event, EventType: eventType, Payload: []byte(`{"id":"` + event + `"}`), At: at(1)}
		if token != "" {
			f.Token, f.Until = token, at(5)
		}
		leases, err := fanOutNow(ctx, a.Dispatch, f, newID)
		if err != nil {
			t.Fatalf("FanOut(%s): %v", event, err)
		}
		sort.Slice(leases, func(i, j int) bool { return leases[i].Endpoint.ID < leases[j].Endpoint.ID })
		for _, l := range leases {
			want := webhooks.NewDelivery(l.Delivery.ID, l.Endpoint, event, eventType, f.Payload, at(1))
			if !reflect.DeepEqual(l.Delivery, want) || l.Token != f.Token || !l.Until.Equal(f.Until) {
				t.Fatalf("lease %+v (delivery %+v); want %+v under %q until %v", l, l.Delivery, want, f.Token, f.Until)
			}
			got, err := a.Deliveries.Get(ctx, ws, l.Delivery.ID)
			if err != nil {
				t.Fatalf("stored %+v, %v; want %+v", got, err, want)
			}
			mustMatch(t, "stored", want, got)
		}
		return leases
	}
	endpointsOf := func(leases []webhooks.Lease) []string {
		out := make([]string, len(leases))
		for i, l := range leases {
			out[i] = l.Endpoint.ID
		}
		return out
	}

	t.Run("a fan-out writes a delivery per enabled endpoint that wants the type, with what sending needs; a replay writes none", func(t *testing.T) {
		settleDeliveries(t, a)
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		both := mustAddEndpoint(t, a, newEndpoint(t, ws, "both", 0, "order.paid", "student.created"))
		paid := mustAddEndpoint(t, a, newEndpoint(t, ws, "paid", 0))
		mustAddEndpoint(t, a, newEndpoint(t, ws, "students", 0, "student.created"))
		off := mustAddEndpoint(t, a, newEndpoint(t, ws, "off", 0))
		off.Disable(webhooks.ByOperator, at(0))
		if err := a.Subs.Save(ctx, off); err != nil {
			t.Fatal(err)
		}
		mustAddEndpoint(t, a, newEndpoint(t, other, "elsewhere", 0))

		leases := fan(t, ws, "evt_1", "order.paid", "tokF")
		if got := endpointsOf(leases); !slices.Equal(got, []string{both.ID, paid.ID}) {
			t.Fatalf("fanned out to %v; want %s and %s", got, both.ID, paid.ID)
		}
		for i, s := range []*webhooks.Subscription{both, paid} {
			e := leases[i].Endpoint
			if e.WorkspaceID != ws || e.URL != s.URL || e.Secret.String() != s.Secret.String() || e.SecretUnreadable {
				t.Fatalf("endpoint %+v; want %s's URL and secret", e, s.ID)
			}
		}
		if ids := claim(t, a, 2, 3, "tokA", 10, anyRoom); len(ids) != 0 {
			t.Fatalf("claimed %v under the fan-out's lease", ids)
		}
		if got, err := a.Dispatch.GetLeased(ctx, ws, leases[0].Delivery.ID, "tokF"); err != nil || got.ID != leases[0].Delivery.ID {
			t.Fatalf("GetLeased under the fan-out's token = %+v, %v", got, err)
		}
		if again := fan(t, ws, "evt_1", "order.paid", "tokG"); len(again) != 0 {
			t.Fatalf("a replay wrote %v", endpointsOf(again))
		}
		if none := fan(t, ws, "evt_2", "order", ""); len(none) != 0 {
			t.Fatalf("type order matched %v", endpointsOf(none))
		}
		unleased := fan(t, ws, "evt_3", "order.paid", "")
		if ids := claim(t, a, 2, 3, "tokA", 10, anyRoom); len(ids) != len(unleased) || len(ids) != 2 {
			t.Fatalf("claimed %v; want the 2 unleased deliveries", ids)
		}
	})

	t.Run("a fan-out follows endpoints added, disabled and changed since the last one", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		one := mustAddEndpoint(t, a, newEndpoint(t, ws, "one", 0))
		if got := endpointsOf(fan(t, ws, "evt_1", "order.paid", "tok")); !slices.Equal(got, []string{one.ID}) {
			t.Fatalf("first: %v", got)
		}
		two := mustAddEndpoint(t, a, newEndpoint(t, ws, "two", 0))
		three := mustAddEndpoint(t, a, newEndpoint(t, ws, "three", 0))
		if got := endpointsOf(fan(t, ws, "evt_2", "order.paid", "tok")); !slices.Equal(got, []string{one.ID, three.ID, two.ID}) {
			t.Fatalf("after two were added: %v", got)
		}
		two.Disable(webhooks.ByOperator, at(0))
		if err := a.Subs.Save(ctx, two); err != nil {
			t.Fatal(err)
		}
		one.Events = []string{"student.created"}
		if err := a.Subs.Save(ctx, one); err != nil {
			t.Fatal(err)
		}
		if got := endpointsOf(fan(t, ws, "evt_3", "order.paid", "tok")); !slices.Equal(got, []string{three.ID}) {
			t.Fatalf("after a disable and a change of types: %v", got)
		}
		if got := endpointsOf(fan(t, ws, "evt_3", "student.created", "tok")); !slices.Equal(got, []string{one.ID}) {
			t.Fatalf("another type: %v", got)
		}
	})

	t.Run("racing fan-outs of one event write each delivery once", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		s1 := mustAddEndpoint(t, a, newEndpoint(t, ws, "one", 0))
		s2 := mustAddEndpoint(t, a, newEndpoint(t, ws, "two", 0))
		var written atomic.Int64
		for i, err := range Parallel(8, func(int) error {
			leases, err := fanOutNow(ctx, a.Dispatch, webhooks.Fan{WorkspaceID: ws, EventID: "evt_race", EventType: "order.paid",
				Payload: []byte(`{}`), At: at(1)}, newID)
			written.Add(int64(len(leases)))
			return err
		}) {
			if err != nil {
				t.Fatalf("fan-out %d: %v", i, err)
			}
		}
		if written.Load() != 2 {
			t.Fatalf("%d deliveries written; want one for each of %s and %s", written.Load(), s1.ID, s2.ID)
		}
	})
}

// finishSucceededCases pin Dispatch.FinishSucceeded: Finish's rule, the saved ones' lines
// logged and their endpoints' failing streaks ended, nothing of the skipped ones.
func finishSucceededCases(t *testing.T, a WebhookAdapters) {
	ctx := context.Background()
	t.Run("FinishSucceeded saves, logs and ends the streak of what its lease still holds, only that", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		policy := webhooks.Policy{Schedule: webhooks.DefaultSchedule}
		failing := func(name string) *webhooks.Subscription {
			s := newEndpoint(t, ws, name, 0)
			s.RecordFailure(at(0), 1000*at(1).Sub(at(0)))
			return mustAddEndpoint(t, a, s)
		}
		s, lost := failing("hook"), failing("lost")
		d1 := mustAddDelivery(t, a, newDeliveryOf(s, "evt_1", 0))
		d2 := mustAddDelivery(t, a, newDeliveryOf(s, "evt_2", 0))
		d3 := mustAddDelivery(t, a, newDeliveryOf(lost, "evt_3", 0))
		if ids := claim(t, a, 1, 30, "tokA", 10, anyRoom); len(ids) != 3 {
			t.Fatalf("claimed %v", ids)
		}
		var fs []webhooks.Finished
		var as []webhooks.Attempt
		for _, f := range []struct {
			d            *webhooks.Delivery
			token        string
			cycle, delay int
		}{{d1, "tokA", 0, 0}, {d2, "tokA", 3, 0}, {d3, "tokB", 0, 0}, {d1, "tokA", 0, 1}} {
			done := *f.d
			as = append(as, done.RecordAttempt(webhooks.Result{StatusCode: 204, Response: "ok"}, at(2+f.delay), policy))
			fs = append(fs, webhooks.Finished{Delivery: &done, Token: f.token, Cycle: f.cycle})
		}
		saved, err := a.Dispatch.FinishSucceeded(ctx, fs, as)
		if err != nil || !slices.Equal(saved, []bool{true, false, false, false}) {
			t.Fatalf("FinishSucceeded = %v, %v; want the first alone", saved, err)
		}
		if got, _ := a.Deliveries.Get(ctx, ws, d1.ID); !reflect.DeepEqual(got, fs[0].Delivery) {
			t.Fatalf("after FinishSucceeded: %+v; want %+v", got, fs[0].Delivery)
		}
		for _, d := range []*webhooks.Delivery{d2, d3} {
			if got, _ := a.Deliveries.Get(ctx, ws, d.ID); !reflect.DeepEqual(got, d) {
				t.Fatalf("a skipped delivery changed: %+v", got)
			}
		}
		logs, err := a.Deliveries.Attempts(ctx, ws, []string{d1.ID, d2.ID, d3.ID})
		if err != nil || len(logs) != 1 || !reflect.DeepEqual(logs[d1.ID], []webhooks.Attempt{as[0]}) {
			t.Fatalf("attempt log %+v, %v; want %+v alone", logs, err, as[0])
		}
		if got, _ := a.Subs.Get(ctx, ws, s.ID); got.FailingSince != nil {
			t.Fatalf("the streak of %s survived a saved success", s.ID)
		}
		if got, _ := a.Subs.Get(ctx, ws, lost.ID); got.FailingSince == nil {
			t.Fatalf("a skipped success ended the streak of %s", lost.ID)
		}
		if saved, err := a.Dispatch.FinishSucceeded(ctx, nil, nil); err != nil || len(saved) != 0 {
			t.Fatalf("FinishSucceeded of none = %v, %v", saved, err)
		}
	})
}

// fanOutNow is FanOut outside a transaction, which writes at once: written is told
// exactly once, before FanOut returns.
func fanOutNow(ctx context.Context, d webhooks.Dispatch, f webhooks.Fan, newID func() string) ([]webhooks.Lease, error) {
	var leases []webhooks.Lease
	told := 0
	err := d.FanOut(ctx, f, newID, func(_ context.Context, ls []webhooks.Lease) { leases, told = ls, told+1 })
	if err == nil && told != 1 {
		return nil, fmt.Errorf("written told %d times outside a transaction; want once, before FanOut returns", told)
	}
	return leases, err
}
