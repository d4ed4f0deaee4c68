package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// The dispatcher's queues span workspaces (a claim serves them all), so a case first
// settles what earlier cases of the suite left due, far in the future.
var settleAt = at(100000)

// settleDeliveries claims every delivery due at settleAt and completes it as succeeded.
func settleDeliveries(t *testing.T, a WebhookAdapters) {
	t.Helper()
	ctx := context.Background()
	leases, err := a.Dispatch.ClaimDue(ctx, settleAt, settleAt.Add(1), "settle", 1000, webhooks.Room{PerEndpoint: 1000})
	if err != nil {
		t.Fatalf("settle: %v", err)
	}
	for _, l := range leases {
		d := *l.Delivery
		d.Status, d.NextAttemptAt = webhooks.DeliverySucceeded, nil
		if err := a.Dispatch.Complete(ctx, &d, l.Token); err != nil {
			t.Fatalf("settle: %v", err)
		}
	}
}

func claim(t *testing.T, a WebhookAdapters, now, until int, token string, limit int, room webhooks.Room) []string {
	t.Helper()
	leases, err := a.Dispatch.ClaimDue(context.Background(), at(now), at(until), token, limit, room)
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	ids := make([]string, len(leases))
	for i, l := range leases {
		if l.Token != token || !l.Until.Equal(at(until)) {
			t.Fatalf("lease %+v: want token %s until %v", l, token, at(until))
		}
		ids[i] = l.Delivery.ID
	}
	return ids
}

var anyRoom = webhooks.Room{PerEndpoint: 100}

// WebhookDispatch is the contract of webhooks.Dispatch.
func WebhookDispatch(t *testing.T, open WebhookFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("due deliveries are leased oldest first with their endpoint; not future ones, nor a disabled endpoint's", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		s1, s2 := mustAddEndpoint(t, a, newEndpoint(t, ws, "one", 0)), mustAddEndpoint(t, a, newEndpoint(t, ws, "two", 0))
		off := mustAddEndpoint(t, a, newEndpoint(t, ws, "off", 0))
		first := mustAddDelivery(t, a, newDeliveryOf(s2, "evt_1", 0))
		second := mustAddDelivery(t, a, newDeliveryOf(s1, "evt_2", 1))
		mustAddDelivery(t, a, newDeliveryOf(s1, "evt_3", 5))
		mustAddDelivery(t, a, newDeliveryOf(off, "evt_4", 0))
		off.Disable(webhooks.ByOperator, at(0))
		if err := a.Subs.Save(ctx, off); err != nil {
			t.Fatal(err)
		}
		leases, err := a.Dispatch.ClaimDue(ctx, at(2), at(3), "tokA", 10, anyRoom)
		if err != nil || len(leases) != 2 {
			t.Fatalf("ClaimDue = %+v, %v; want two", leases, err)
		}
		for i, want := range []*webhooks.Delivery{first, second} {
			l := leases[i]
			mustMatch(t, "lease", want, l.Delivery)
			sub := map[string]*webhooks.Subscription{s1.ID: s1, s2.ID: s2}[want.SubscriptionID]
			e := l.Endpoint
			if e.ID != sub.ID || e.WorkspaceID != ws || e.URL != sub.URL || !e.Secret.Equal(sub.Secret) || e.SecretUnreadable || e.Status != webhooks.Enabled {
				t.Fatalf("lease %d endpoint %+v; want %s's", i, e, sub.ID)
			}
		}
		if ids := claim(t, a, 2, 3, "tokB", 10, anyRoom); len(ids) != 0 {
			t.Fatalf("leased deliveries claimed again: %v", ids)
		}
		if ids := claim(t, a, 4, 5, "tokB", 10, anyRoom); !slices.Equal(ids, []string{first.ID, second.ID}) {
			t.Fatalf("after the lease expired: %v", ids)
		}
		if _, err := a.Dispatch.GetLeased(ctx, ws, first.ID, "tokA"); kernel.KindOf(err) != kernel.KindNotFound {
			t.Fatalf("the expired token still holds the delivery: %v", err)
		}
	})

	t.Run("each endpoint takes at most its room, and the claim at most its limit", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		s1, s2 := mustAddEndpoint(t, a, newEndpoint(t, ws, "one", 0)), mustAddEndpoint(t, a, newEndpoint(t, ws, "two", 0))
		var of1, of2 []string
		for i := range 4 {
			of1 = append(of1, mustAddDelivery(t, a, newDeliveryOf(s1, fmt.Sprintf("evt_%d", i), i)).ID)
			of2 = append(of2, mustAddDelivery(t, a, newDeliveryOf(s2, fmt.Sprintf("evt_%d", i), i)).ID)
		}
		ids := claim(t, a, 10, 11, "tokA", 10, webhooks.Room{PerEndpoint: 2, InFlight: map[string]int{s1.ID: 1}})
		want := []string{of1[0], of2[0], of2[1]}
		if !slices.Equal(ids, want) {
			t.Fatalf("claimed %v; want %v (one of the first endpoint, two of the second)", ids, want)
		}
		if ids := claim(t, a, 10, 11, "tokB", 2, anyRoom); !slices.Equal(ids, []string{of1[1], of1[2]}) {
			t.Fatalf("claimed %v with limit 2; want the two oldest left", ids)
		}
		if ids := claim(t, a, 10, 11, "tokC", 0, anyRoom); len(ids) != 0 {
			t.Fatalf("claimed %v with limit 0", ids)
		}
	})

	t.Run("racing claimers never lease one delivery twice", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		var all []string
		for e := range 4 {
			s := mustAddEndpoint(t, a, newEndpoint(t, ws, fmt.Sprintf("e%d", e), 0))
			for i := range 6 {
				all = append(all, mustAddDelivery(t, a, newDeliveryOf(s, fmt.Sprintf("evt_%d", i), i%3)).ID)
			}
		}
		var mu sync.Mutex
		var got []string
		for i, err := range Parallel(8, func(i int) error {
			leases, err := a.Dispatch.ClaimDue(ctx, at(10), at(11), fmt.Sprintf("racer%d", i), 4, anyRoom)
			mu.Lock()
			defer mu.Unlock()
			for _, l := range leases {
				got = append(got, l.Delivery.ID)
			}
			return err
		}) {
			if err != nil {
				t.Fatalf("racer %d: %v", i, err)
			}
		}
		got = append(got, claim(t, a, 10, 11, "last", 100, anyRoom)...) // what racers skipped
		slices.Sort(got)
		slices.Sort(all)
		if !slices.Equal(got, all) {
			t.Fatalf("leased %v; want each of %v exactly once", got, all)
		}
	})

	t.Run("GetLeased, Complete, Finish and Release hold to the lease's token and cycle", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
		d1 := mustAddDelivery(t, a, newDeliveryOf(s, "evt_1", 0))
		d2 := mustAddDelivery(t, a, newDeliveryOf(s, "evt_2", 0))
		d3 := mustAddDelivery(t, a, newDeliveryOf(s, "evt_3", 0))
		claim(t, a, 1, 30, "tokA", 10, anyRoom)
		if _, err := a.Dispatch.GetLeased(ctx, ws, d1.ID, "tokB"); kernel.KindOf(err) != kernel.KindNotFound {
			t.Fatalf("GetLeased with another token: %v", err)
		}
		if _, err := a.Dispatch.GetLeased(ctx, a.NewWorkspace(t), d1.ID, "tokA"); kernel.KindOf(err) != kernel.KindNotFound {
			t.Fatalf("GetLeased from another workspace: %v", err)
		}
		if got, err := a.Dispatch.GetLeased(ctx, ws, d1.ID, "tokA"); err != nil || !reflect.DeepEqual(got, d1) {
			t.Fatalf("GetLeased = %+v, %v", got, err)
		}
		policy := webhooks.Policy{Schedule: webhooks.DefaultSchedule}
		done := *d1
		done.RecordAttempt(webhooks.Result{StatusCode: 204}, at(2), policy)
		if err := a.Dispatch.Complete(ctx, &done, "tokB"); err != nil {
			t.Fatal(err)
		}
		if got, _ := a.Deliveries.Get(ctx, ws, d1.ID); !reflect.DeepEqual(got, d1) {
			t.Fatalf("Complete under another token wrote %+v", got)
		}
		if err := a.Dispatch.Complete(ctx, &done, "tokA"); err != nil {
			t.Fatal(err)
		}
		if got, _ := a.Deliveries.Get(ctx, ws, d1.ID); !reflect.DeepEqual(got, &done) {
			t.Fatalf("after Complete: %+v; want %+v", got, &done)
		}
		if _, err := a.Dispatch.GetLeased(ctx, ws, d1.ID, "tokA"); kernel.KindOf(err) != kernel.KindNotFound {
			t.Fatalf("the lease outlived Complete: %v", err)
		}

		sent, again, stale := *d2, *d2, *d3
		sent.RecordAttempt(webhooks.Result{StatusCode: 500}, at(2), policy)
		again.RecordAttempt(webhooks.Result{StatusCode: 204}, at(3), policy)
		stale.RecordAttempt(webhooks.Result{StatusCode: 204}, at(2), policy)
		saved, err := a.Dispatch.Finish(ctx, []webhooks.Finished{
			{Delivery: &sent, Token: "tokA", Cycle: 0}, {Delivery: &again, Token: "tokA", Cycle: 0}, {Delivery: &stale, Token: "tokA", Cycle: 5},
		})
		if err != nil || !slices.Equal(saved, []bool{true, false, false}) {
			t.Fatalf("Finish = %v, %v; want the first alone", saved, err)
		}
		if got, _ := a.Deliveries.Get(ctx, ws, d2.ID); !reflect.DeepEqual(got, &sent) {
			t.Fatalf("after Finish: %+v; want %+v", got, &sent)
		}
		if got, err := a.Dispatch.GetLeased(ctx, ws, d3.ID, "tokA"); err != nil || !reflect.DeepEqual(got, d3) {
			t.Fatalf("a refused Finish changed the delivery or its lease: %+v, %v", got, err)
		}
		if saved, err := a.Dispatch.Finish(ctx, nil); err != nil || len(saved) != 0 {
			t.Fatalf("Finish of none = %v, %v", saved, err)
		}
		if err := a.Dispatch.Release(ctx, ws, d3.ID, "tokB"); err != nil {
			t.Fatal(err)
		}
		if ids := claim(t, a, 1, 30, "tokC", 10, anyRoom); len(ids) != 0 {
			t.Fatalf("Release under another token freed %v", ids)
		}
		if err := a.Dispatch.Release(ctx, ws, d3.ID, "tokA"); err != nil {
			t.Fatal(err)
		}
		if ids := claim(t, a, 1, 30, "tokC", 10, anyRoom); !slices.Equal(ids, []string{d3.ID}) {
			t.Fatalf("after Release: claimed %v; want %s at once", ids, d3.ID)
		}
	})

	t.Run("a delivery added leased waits for its lease to expire", func(t *testing.T) {
		settleDeliveries(t, a)
		ws := a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
		d := newDeliveryOf(s, "evt_1", 0)
		if added, err := a.Deliveries.AddLeased(ctx, d, "tokF", at(5)); err != nil || !added {
			t.Fatalf("AddLeased = %v, %v", added, err)
		}
		if ids := claim(t, a, 1, 2, "tokA", 10, anyRoom); len(ids) != 0 {
			t.Fatalf("claimed %v under the fan-out's lease", ids)
		}
		if got, err := a.Dispatch.GetLeased(ctx, ws, d.ID, "tokF"); err != nil || !reflect.DeepEqual(got, d) {
			t.Fatalf("GetLeased = %+v, %v", got, err)
		}
		if ids := claim(t, a, 6, 7, "tokA", 10, anyRoom); !slices.Equal(ids, []string{d.ID}) {
			t.Fatalf("after the lease: claimed %v", ids)
		}
	})
	fanOutCases(t, a)
	finishSucceededCases(t, a)
}

// settleNotices sends every notice due at settleAt.
func settleNotices(t *testing.T, a WebhookAdapters) {
	t.Helper()
	ctx := context.Background()
	ns, err := a.Notices.ClaimDue(ctx, settleAt, settleAt.Add(1), 1000)
	if err != nil {
		t.Fatalf("settle notices: %v", err)
	}
	for _, n := range ns {
		if err := a.Notices.MarkSent(ctx, n.WorkspaceID, n.ID, settleAt); err != nil {
			t.Fatalf("settle notices: %v", err)
		}
	}
}

func newNotice(ws, name string, minute int) webhooks.Notice {
	return webhooks.Notice{ID: "ntc_" + ws + "_" + name, WorkspaceID: ws, SubscriptionID: "whk_" + ws, To: "owner@example.com",
		Subject: "Webhook endpoint disabled", Body: "body of " + name, CreatedAt: at(minute)}
}

func noticeIDs(ns []webhooks.Notice) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

func claimNotices(t *testing.T, a WebhookAdapters, now, until, limit int) []webhooks.Notice {
	t.Helper()
	ns, err := a.Notices.ClaimDue(context.Background(), at(now), at(until), limit)
	if err != nil {
		t.Fatalf("claim notices: %v", err)
	}
	return ns
}

// WebhookNotices is the contract of webhooks.Notices.
func WebhookNotices(t *testing.T, open WebhookFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("due notices are leased oldest first, sent once, retried when they failed", func(t *testing.T) {
		settleNotices(t, a)
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		n1, n2, n3 := newNotice(ws, "n1", 0), newNotice(ws, "n2", 1), newNotice(ws, "n3", 9)
		for _, n := range []webhooks.Notice{n2, n1, n3} {
			if err := a.Notices.Add(ctx, n); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Notices.Add(ctx, n1); err == nil {
			t.Fatal("a notice id was stored twice")
		}
		if got := claimNotices(t, a, 2, 3, 10); !reflect.DeepEqual(got, []webhooks.Notice{n1, n2}) {
			t.Fatalf("claimed %+v; want n1, n2", got)
		}
		if got := claimNotices(t, a, 2, 3, 10); len(got) != 0 {
			t.Fatalf("leased notices claimed again: %v", noticeIDs(got))
		}
		if got := claimNotices(t, a, 4, 5, 1); !slices.Equal(noticeIDs(got), []string{n1.ID}) {
			t.Fatalf("after the lease, limit 1: %v", noticeIDs(got))
		}
		if err := a.Notices.MarkSent(ctx, other, n1.ID, at(4)); err != nil {
			t.Fatal(err)
		}
		if got := claimNotices(t, a, 6, 7, 10); !slices.Equal(noticeIDs(got), []string{n1.ID, n2.ID}) {
			t.Fatalf("MarkSent from another workspace counted: %v", noticeIDs(got))
		}
		if err := a.Notices.MarkSent(ctx, ws, n1.ID, at(6)); err != nil {
			t.Fatal(err)
		}
		if err := a.Notices.MarkFailed(ctx, ws, n2.ID, "smtp: connection refused", at(20)); err != nil {
			t.Fatal(err)
		}
		if got := claimNotices(t, a, 10, 11, 10); !slices.Equal(noticeIDs(got), []string{n3.ID}) {
			t.Fatalf("at 10: %v; want n3 alone (n1 sent, n2 retried at 20)", noticeIDs(got))
		}
		if got := claimNotices(t, a, 21, 22, 10); !slices.Equal(noticeIDs(got), []string{n3.ID, n2.ID}) {
			t.Fatalf("at 21: %v; want n3 (due at 9), then n2 (due at 20)", noticeIDs(got))
		}
	})

	t.Run("racing claimers never lease one notice twice", func(t *testing.T) {
		settleNotices(t, a)
		ws := a.NewWorkspace(t)
		var all []string
		for i := range 12 {
			n := newNotice(ws, fmt.Sprintf("n%02d", i), i%4)
			if err := a.Notices.Add(ctx, n); err != nil {
				t.Fatal(err)
			}
			all = append(all, n.ID)
		}
		var mu sync.Mutex
		var got []string
		for i, err := range Parallel(6, func(int) error {
			ns, err := a.Notices.ClaimDue(ctx, at(10), at(11), 3)
			mu.Lock()
			defer mu.Unlock()
			got = append(got, noticeIDs(ns)...)
			return err
		}) {
			if err != nil {
				t.Fatalf("racer %d: %v", i, err)
			}
		}
		got = append(got, noticeIDs(claimNotices(t, a, 10, 11, 100))...)
		slices.Sort(got)
		slices.Sort(all)
		if !slices.Equal(got, all) {
			t.Fatalf("leased %v; want each of %v exactly once", got, all)
		}
	})
}

// WebhookRetention is the contract of the module's retention port.
func WebhookRetention(t *testing.T, open WebhookFactory) {
	a := open(t)
	ctx := context.Background()
	ws := a.NewWorkspace(t)
	s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", -20000))
	const old, cutoff = -10000, -5000
	finishedOld := newDeliveryOf(s, "evt_old", old)
	finishedOld.Status, finishedOld.NextAttemptAt = webhooks.DeliverySucceeded, nil
	pendingOld := newDeliveryOf(s, "evt_pending", old)
	finishedNew := newDeliveryOf(s, "evt_new", 0)
	finishedNew.Status, finishedNew.NextAttemptAt = webhooks.DeliveryFailed, nil
	var attempts []webhooks.Attempt
	for _, d := range []*webhooks.Delivery{finishedOld, pendingOld, finishedNew} {
		mustAddDelivery(t, a, d)
		attempts = append(attempts, webhooks.Attempt{DeliveryID: d.ID, WorkspaceID: ws, SubscriptionID: s.ID, Number: 1,
			At: d.CreatedAt, StatusCode: 500, Outcome: webhooks.Retry})
	}
	attempts = append(attempts, webhooks.Attempt{DeliveryID: finishedOld.ID, WorkspaceID: ws, SubscriptionID: s.ID, Number: 2,
		At: at(0), StatusCode: 204, Outcome: webhooks.Succeeded}) // recent, but its delivery goes
	if err := a.Deliveries.AddAttempts(ctx, attempts); err != nil {
		t.Fatal(err)
	}
	sentOld, unsentOld, sentNew := newNotice(ws, "sent_old", old), newNotice(ws, "unsent_old", old), newNotice(ws, "sent_new", 0)
	for _, n := range []webhooks.Notice{sentOld, unsentOld, sentNew} {
		if err := a.Notices.Add(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Notices.MarkSent(ctx, ws, sentOld.ID, at(old)); err != nil {
		t.Fatal(err)
	}
	if err := a.Notices.MarkSent(ctx, ws, sentNew.ID, at(0)); err != nil {
		t.Fatal(err)
	}

	n, err := a.Retention.Prune(ctx, at(cutoff))
	// Two old attempts, the finished old delivery (its recent attempt with it), the old
	// sent notice.
	if err != nil || n != 4 {
		t.Fatalf("Prune = %d, %v; want 4", n, err)
	}
	if _, err := a.Deliveries.Get(ctx, ws, finishedOld.ID); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("the old finished delivery stayed: %v", err)
	}
	for _, d := range []*webhooks.Delivery{pendingOld, finishedNew} {
		if got, err := a.Deliveries.Get(ctx, ws, d.ID); err != nil || !reflect.DeepEqual(got, d) {
			t.Fatalf("%s after Prune: %+v, %v", d.ID, got, err)
		}
	}
	logs, err := a.Deliveries.Attempts(ctx, ws, []string{finishedOld.ID, pendingOld.ID, finishedNew.ID})
	if err != nil || len(logs) != 1 || len(logs[finishedNew.ID]) != 1 {
		t.Fatalf("attempts after Prune: %+v, %v; want the recent delivery's alone", logs, err)
	}
	if got := claimNotices(t, a, 1, 2, 10); !slices.Equal(noticeIDs(got), []string{unsentOld.ID}) {
		t.Fatalf("notices due after Prune: %v; want the unsent one", noticeIDs(got))
	}
	if n, err := a.Retention.Prune(ctx, at(cutoff)); err != nil || n != 0 {
		t.Fatalf("Prune again = %d, %v; want 0", n, err)
	}
}
