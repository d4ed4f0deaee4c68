package contracttest

import (
	"context"
	"crypto/rand"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// WebhookAdapters is one implementation of the webhooks module's ports, over one store.
type WebhookAdapters struct {
	Subs       webhooks.Repository
	Deliveries webhooks.Deliveries
	Pages      query.DeliveryPages
	Log        query.DeliveryLog
	Dispatch   webhooks.Dispatch
	Notices    webhooks.Notices
	Retention  command.Retention
	// NewWorkspace returns the id of a fresh workspace the store accepts.
	NewWorkspace func(t *testing.T) string
}

// WebhookFactory opens a store once per suite; each case works in its own workspace.
type WebhookFactory func(t *testing.T) WebhookAdapters

// newEndpoint is an enabled endpoint built by the domain with a fresh secret; its id is
// unique per case.
func newEndpoint(t *testing.T, ws, name string, minute int, events ...string) *webhooks.Subscription {
	t.Helper()
	secret, err := webhooks.GenerateSecret(rand.Reader)
	if err != nil {
		t.Fatalf("secret: %v", err)
	}
	if len(events) == 0 {
		events = []string{"order.paid"}
	}
	s, err := webhooks.NewSubscription("whk_"+ws+"_"+name, ws, "https://receiver.example.com/"+name, events, secret, false, at(minute))
	if err != nil {
		t.Fatalf("new endpoint: %v", err)
	}
	return s
}

func mustAddEndpoint(t *testing.T, a WebhookAdapters, s *webhooks.Subscription) *webhooks.Subscription {
	t.Helper()
	if err := a.Subs.Add(context.Background(), s); err != nil {
		t.Fatalf("add endpoint %s: %v", s.ID, err)
	}
	return s
}

// newDeliveryOf is a pending delivery of event to s, due at its creation.
func newDeliveryOf(s *webhooks.Subscription, event string, minute int) *webhooks.Delivery {
	return webhooks.NewDelivery("evd_"+s.ID+"_"+event, s, event, "order.paid", []byte(`{"event":"`+event+`"}`), at(minute))
}

func mustAddDelivery(t *testing.T, a WebhookAdapters, d *webhooks.Delivery) *webhooks.Delivery {
	t.Helper()
	if added, err := a.Deliveries.AddIfAbsent(context.Background(), d); err != nil || !added {
		t.Fatalf("add delivery %s: %v, %v", d.ID, added, err)
	}
	return d
}

func endpointIDs(list []*webhooks.Subscription) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.ID
	}
	return out
}

func deliveryID(d *webhooks.Delivery) string { return d.ID }

// WebhookSubscriptions is the contract of webhooks.Repository.
func WebhookSubscriptions(t *testing.T, open WebhookFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("an endpoint reads back as written, secrets included; NotFound outside its workspace", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "shop", 0, "order.paid", "student.created"))
		got, err := a.Subs.Get(ctx, ws, s.ID)
		if err != nil {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, s)
		}
		mustMatch(t, "Get", s, got)
		if got, err = a.Subs.GetForUpdate(ctx, ws, s.ID); err != nil || !reflect.DeepEqual(got, s) {
			t.Fatalf("GetForUpdate = %+v, %v", got, err)
		}
		_, err = a.Subs.Get(ctx, other, s.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		if list, err := a.Subs.List(ctx, other); err != nil || len(list) != 0 {
			t.Fatalf("List of another workspace = %v, %v", endpointIDs(list), err)
		}
	})

	t.Run("an endpoint keeps the payload version it was created with", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := newEndpoint(t, ws, "v2", 0, "order.paid")
		s.PayloadVersion = 2
		mustAddEndpoint(t, a, s)
		got, err := a.Subs.Get(ctx, ws, s.ID)
		if err != nil || got.PayloadVersion != 2 {
			t.Fatalf("Get = %+v, %v; want payload version 2", got, err)
		}
	})

	t.Run("an id is unique, concurrently too: exactly one of racing adds lands", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		first := mustAddEndpoint(t, a, newEndpoint(t, ws, "first", 0))
		if err := a.Subs.Add(ctx, newEndpoint(t, ws, "first", 1)); err == nil {
			t.Fatal("a second endpoint with the same id was added")
		}
		wantOneWinner(t, "adds of one id", Parallel(8, func(int) error { return a.Subs.Add(ctx, newEndpoint(t, ws, "race", 2)) }))
		list, err := a.Subs.List(ctx, ws)
		if err != nil || len(list) != 2 || list[1].ID != first.ID {
			t.Fatalf("List = %v, %v; want the winner and the first", endpointIDs(list), err)
		}
	})

	t.Run("listed newest first with ties by id; Enabled keeps enabled endpoints that want the type", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		var want []string
		for i := range 5 {
			s := mustAddEndpoint(t, a, newEndpoint(t, ws, fmt.Sprintf("e%d", i), i/2, "order.paid"))
			want = append([]string{s.ID}, want...)
		}
		list, err := a.Subs.List(ctx, ws)
		if err != nil || !slices.Equal(endpointIDs(list), want) {
			t.Fatalf("List = %v, %v; want %v", endpointIDs(list), err, want)
		}
		other := mustAddEndpoint(t, a, newEndpoint(t, ws, "students", 9, "student.created"))
		off := list[0]
		off.Disable(webhooks.ByOperator, at(10))
		if err := a.Subs.Save(ctx, off); err != nil {
			t.Fatal(err)
		}
		enabled, err := a.Subs.Enabled(ctx, ws, "order.paid")
		got := endpointIDs(enabled)
		slices.Sort(got)
		wantEnabled := slices.Clone(want[1:])
		slices.Sort(wantEnabled)
		if err != nil || !slices.Equal(got, wantEnabled) {
			t.Fatalf("Enabled(order.paid) = %v, %v; want %v", got, err, wantEnabled)
		}
		if enabled, err := a.Subs.Enabled(ctx, ws, "student.created"); err != nil || len(enabled) != 1 || enabled[0].ID != other.ID {
			t.Fatalf("Enabled(student.created) = %v, %v", endpointIDs(enabled), err)
		}
	})

	t.Run("Save keeps the state: disable, rotation with its overlap, failing streak; MarkHealthy ends streaks in the workspace only", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "rotated", 0))
		next, _ := webhooks.GenerateSecret(rand.Reader)
		s.Rotate(next, at(1))
		s.RecordFailure(at(2), time.Hour)
		s.Disable(webhooks.ByFailures, at(3))
		if err := a.Subs.Save(ctx, s); err != nil {
			t.Fatal(err)
		}
		got, err := a.Subs.Get(ctx, ws, s.ID)
		if err != nil {
			t.Fatalf("after Save: %+v, %v; want %+v", got, err, s)
		}
		mustMatch(t, "after Save", s, got)
		if err := a.Subs.MarkHealthy(ctx, other, []string{s.ID}); err != nil {
			t.Fatal(err)
		}
		if got, _ := a.Subs.Get(ctx, ws, s.ID); got.FailingSince == nil {
			t.Fatal("MarkHealthy of another workspace ended the streak")
		}
		if err := a.Subs.MarkHealthy(ctx, ws, []string{s.ID}); err != nil {
			t.Fatal(err)
		}
		if got, _ := a.Subs.Get(ctx, ws, s.ID); got.FailingSince != nil || !got.UpdatedAt.Equal(s.UpdatedAt) {
			t.Fatalf("after MarkHealthy: failing since %v, updated %v", got.FailingSince, got.UpdatedAt)
		}
		if err := a.Subs.MarkHealthy(ctx, ws, nil); err != nil {
			t.Fatalf("MarkHealthy of none: %v", err)
		}
	})

	t.Run("Save of an endpoint whose secret was unreadable keeps the stored secrets", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "unreadable", 0))
		kept := s.Secret
		blind := *s
		blind.Secret, blind.SecretUnreadable = webhooks.Secret{}, true
		blind.Disable(webhooks.ByOperator, at(1))
		if err := a.Subs.Save(ctx, &blind); err != nil {
			t.Fatal(err)
		}
		got, err := a.Subs.Get(ctx, ws, s.ID)
		if err != nil || got.Status != webhooks.Disabled || got.SecretUnreadable || !got.Secret.Equal(kept) {
			t.Fatalf("after Save: %+v, %v; want disabled with the stored secret", got, err)
		}
	})
}

// WebhookDeliveries is the contract of webhooks.Deliveries and query.DeliveryPages.
func WebhookDeliveries(t *testing.T, open WebhookFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a delivery reads back as written; NotFound outside its workspace; its endpoint must exist", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
		d := mustAddDelivery(t, a, newDeliveryOf(s, "evt_1", 1))
		got, err := a.Deliveries.Get(ctx, ws, d.ID)
		if err != nil {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, d)
		}
		mustMatch(t, "Get", d, got)
		_, err = a.Deliveries.Get(ctx, other, d.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		ghost := newEndpoint(t, ws, "ghost", 0)
		if _, err := a.Deliveries.AddIfAbsent(ctx, newDeliveryOf(ghost, "evt_1", 1)); err == nil {
			t.Fatal("a delivery to an endpoint never stored was added")
		}
	})

	t.Run("one delivery per endpoint and event, concurrently too", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
		s2 := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook2", 0))
		won := oneWinner(t, 8, func(i int) (bool, error) {
			d := newDeliveryOf(s, "evt_race", 1)
			d.ID = fmt.Sprintf("%s_%d", d.ID, i)
			if i%2 == 1 {
				return a.Deliveries.AddLeased(ctx, d, "tok", at(2))
			}
			return a.Deliveries.AddIfAbsent(ctx, d)
		})
		mustAddDelivery(t, a, newDeliveryOf(s2, "evt_race", 1)) // the same event to another endpoint
		page, err := a.Pages.Page(ctx, ws, s.ID, "", platform.PageRequest{Limit: 10})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != fmt.Sprintf("%s_%d", newDeliveryOf(s, "evt_race", 1).ID, won) {
			t.Fatalf("Page = %+v, %v; want the winner alone", page.Items, err)
		}
	})

	t.Run("Save keeps the state; attempts are listed per delivery oldest first, in the workspace, numbers unique", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
		d := mustAddDelivery(t, a, newDeliveryOf(s, "evt_1", 0))
		d2 := mustAddDelivery(t, a, newDeliveryOf(s, "evt_2", 0))
		policy := webhooks.Policy{Schedule: webhooks.DefaultSchedule, MaxRetryAfter: time.Hour}
		first := d.RecordAttempt(webhooks.Result{StatusCode: 500, Latency: 12 * time.Millisecond, Response: "oops"}, at(1), policy)
		second := d.RecordAttempt(webhooks.Result{StatusCode: 204, Latency: 7 * time.Millisecond}, at(2), policy)
		other2 := d2.RecordAttempt(webhooks.Result{Error: "connection refused"}, at(3), policy)
		if err := a.Deliveries.Save(ctx, d); err != nil {
			t.Fatal(err)
		}
		if err := a.Deliveries.AddAttempts(ctx, []webhooks.Attempt{second, other2, first}); err != nil {
			t.Fatal(err)
		}
		if err := a.Deliveries.AddAttempts(ctx, nil); err != nil {
			t.Fatalf("no attempts: %v", err)
		}
		if err := a.Deliveries.AddAttempts(ctx, []webhooks.Attempt{first}); err == nil {
			t.Fatal("an attempt number was stored twice")
		}
		got, err := a.Deliveries.Get(ctx, ws, d.ID)
		if err != nil {
			t.Fatalf("after Save: %+v, %v; want %+v", got, err, d)
		}
		mustMatch(t, "after Save", d, got)
		logs, err := a.Pages.Attempts(ctx, ws, []string{d.ID, d2.ID, "evd_none"})
		want := map[string][]webhooks.Attempt{d.ID: {first, second}, d2.ID: {other2}}
		if err != nil {
			t.Fatalf("Attempts = %+v, %v; want %+v", logs, err, want)
		}
		mustMatch(t, "Attempts", want, logs)
		if logs, err := a.Deliveries.Attempts(ctx, other, []string{d.ID}); err != nil || len(logs) != 0 {
			t.Fatalf("Attempts from another workspace = %+v, %v", logs, err)
		}
		if logs, err := a.Deliveries.Attempts(ctx, ws, nil); err != nil || len(logs) != 0 {
			t.Fatalf("Attempts of none = %+v, %v", logs, err)
		}
	})

	t.Run("ResendFailed restarts the endpoint's failed deliveries created in [since, until) only", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
		s2 := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook2", 0))
		fail := func(d *webhooks.Delivery) *webhooks.Delivery {
			d.Status, d.NextAttemptAt, d.Attempts, d.CycleAttempts, d.CycleFailedAt = webhooks.DeliveryFailed, nil, 3, 3, ptr(at(1))
			mustAddDelivery(t, a, d)
			return d
		}
		before, in, edge, after := fail(newDeliveryOf(s, "evt_0", 0)), fail(newDeliveryOf(s, "evt_1", 1)), fail(newDeliveryOf(s, "evt_2", 2)), fail(newDeliveryOf(s, "evt_3", 3))
		pending := mustAddDelivery(t, a, newDeliveryOf(s, "evt_p", 1))
		elsewhere := fail(newDeliveryOf(s2, "evt_1", 1))
		n, err := a.Deliveries.ResendFailed(ctx, ws, s.ID, at(1), at(3), at(10))
		if err != nil || n != 2 {
			t.Fatalf("ResendFailed = %d, %v; want 2", n, err)
		}
		for _, d := range []*webhooks.Delivery{in, edge} {
			d.Resend(at(10))
		}
		for _, d := range []*webhooks.Delivery{before, in, edge, after, pending, elsewhere} {
			if got, err := a.Deliveries.Get(ctx, ws, d.ID); err != nil || !reflect.DeepEqual(got, d) {
				t.Fatalf("%s after resend: %+v, %v; want %+v", d.ID, got, err, d)
			}
		}
	})

	t.Run("pages newest first with ties by id, by status, through keyset positions", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
		var all, failed []string
		for i := range 7 {
			d := newDeliveryOf(s, fmt.Sprintf("evt_%d", i), i/2)
			if i%3 == 0 {
				d.Status, d.NextAttemptAt = webhooks.DeliveryFailed, nil
				failed = append([]string{d.ID}, failed...)
			}
			mustAddDelivery(t, a, d)
			all = append([]string{d.ID}, all...)
		}
		got := pageThrough(t, 3, deliveryID, func(r platform.PageRequest) (platform.Page[*webhooks.Delivery], error) {
			return a.Pages.Page(ctx, ws, s.ID, "", r)
		})
		if !slices.Equal(got, all) {
			t.Fatalf("pages = %v; want %v", got, all)
		}
		got = pageThrough(t, 2, deliveryID, func(r platform.PageRequest) (platform.Page[*webhooks.Delivery], error) {
			return a.Pages.Page(ctx, ws, s.ID, string(webhooks.DeliveryFailed), r)
		})
		if !slices.Equal(got, failed) {
			t.Fatalf("failed pages = %v; want %v", got, failed)
		}
		if p, err := a.Pages.Page(ctx, a.NewWorkspace(t), s.ID, "", platform.PageRequest{Limit: 5}); err != nil || len(p.Items) != 0 || p.HasMore {
			t.Fatalf("another workspace's page = %+v, %v", p, err)
		}
	})
}

// WebhookDeliveryLog is the contract of query.DeliveryLog.
func WebhookDeliveryLog(t *testing.T, open WebhookFactory) {
	a := open(t)
	ctx := context.Background()
	ws := a.NewWorkspace(t)
	s := mustAddEndpoint(t, a, newEndpoint(t, ws, "hook", 0))
	quiet := mustAddEndpoint(t, a, newEndpoint(t, ws, "quiet", 0))
	// Twelve deliveries, two per instant: by i%4 succeeded, failed, failing (pending after
	// an attempt), pending; by i%2 order.paid or student.created.
	byStatus := map[string][]string{}
	byType := map[string][]string{}
	var all []string
	for i := range 12 {
		d := newDeliveryOf(s, fmt.Sprintf("evt_%02d", i), i/2)
		d.EventType = []string{"order.paid", "student.created"}[i%2]
		status := []string{query.LogSucceeded, query.LogFailed, query.LogFailing, query.LogPending}[i%4]
		switch status {
		case query.LogSucceeded:
			d.Status, d.Attempts, d.NextAttemptAt = webhooks.DeliverySucceeded, 1, nil
		case query.LogFailed:
			d.Status, d.Attempts, d.NextAttemptAt = webhooks.DeliveryFailed, 7, nil
		case query.LogFailing:
			d.Attempts = 2
		}
		mustAddDelivery(t, a, d)
		all = append([]string{d.ID}, all...)
		byStatus[status] = append([]string{d.ID}, byStatus[status]...)
		byType[d.EventType] = append([]string{d.ID}, byType[d.EventType]...)
	}
	search := func(f query.LogFilter) []string {
		t.Helper()
		f.WorkspaceID, f.WebhookID = ws, s.ID
		return pageThrough(t, 2, deliveryID, func(r platform.PageRequest) (platform.Page[*webhooks.Delivery], error) {
			return a.Log.Search(ctx, f, r)
		})
	}

	t.Run("no filter: every delivery newest first, ties by id", func(t *testing.T) {
		if got := search(query.LogFilter{}); !slices.Equal(got, all) {
			t.Fatalf("got %v; want %v", got, all)
		}
	})

	t.Run("each status filter, the type filter, and both", func(t *testing.T) {
		for status, want := range byStatus {
			if got := search(query.LogFilter{Status: status}); !slices.Equal(got, want) {
				t.Fatalf("%s: got %v; want %v", status, got, want)
			}
		}
		if got := search(query.LogFilter{EventType: "student.created"}); !slices.Equal(got, byType["student.created"]) {
			t.Fatalf("student.created: got %v; want %v", got, byType["student.created"])
		}
		var want []string
		for _, id := range byStatus[query.LogFailed] {
			if slices.Contains(byType["student.created"], id) {
				want = append(want, id)
			}
		}
		if got := search(query.LogFilter{Status: query.LogFailed, EventType: "student.created"}); !slices.Equal(got, want) {
			t.Fatalf("failed student.created: got %v; want %v", got, want)
		}
	})

	t.Run("search matches a delivery id or an event id exactly", func(t *testing.T) {
		d := newDeliveryOf(s, "evt_03", 0)
		if got := search(query.LogFilter{Search: "evt_03"}); !slices.Equal(got, []string{d.ID}) {
			t.Fatalf("by event id: %v", got)
		}
		if got := search(query.LogFilter{Search: d.ID}); !slices.Equal(got, []string{d.ID}) {
			t.Fatalf("by delivery id: %v", got)
		}
		if got := search(query.LogFilter{Search: "evt_0"}); len(got) != 0 {
			t.Fatalf("a prefix matched: %v", got)
		}
	})

	t.Run("another workspace sees nothing", func(t *testing.T) {
		p, err := a.Log.Search(ctx, query.LogFilter{WorkspaceID: a.NewWorkspace(t), WebhookID: s.ID}, platform.PageRequest{Limit: 5})
		if err != nil || len(p.Items) != 0 {
			t.Fatalf("got %+v, %v", p.Items, err)
		}
	})

	t.Run("stats count each endpoint's deliveries created since a time", func(t *testing.T) {
		stats, err := a.Log.Stats(ctx, ws, at(3))
		// Created at minutes 3 to 5: i = 6..11, of which i = 8 succeeded and i = 9 failed.
		want := map[string]query.EndpointStats{s.ID: {Deliveries: 6, Succeeded: 1, Failed: 1}, quiet.ID: {}}
		if err != nil {
			t.Fatalf("Stats = %+v, %v; want %+v", stats, err, want)
		}
		mustMatch(t, "Stats", want, stats)
		if stats, err := a.Log.Stats(ctx, a.NewWorkspace(t), at(0)); err != nil || len(stats) != 0 {
			t.Fatalf("Stats of another workspace = %+v, %v", stats, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }
