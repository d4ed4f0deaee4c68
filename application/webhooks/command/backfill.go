package command

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// History reads the event log (the outbox, through the events feed's reader) for
// backfills: one workspace's events in stream order, never one that an older
// transaction can still precede.
type History interface {
	// Tail is the stream's end now: every event committed later comes after it, and every
	// transaction whose fan-out ran before this call is at or before it.
	Tail(ctx context.Context) (webhooks.Position, error)
	Read(ctx context.Context, r HistoryRead) (HistoryPage, error)
}

// HistoryRead asks for events of types created since Since, after After.
type HistoryRead struct {
	WorkspaceID string
	Types       []string
	Since       time.Time
	After       webhooks.Position
	Limit       int
}

// HistoryPage is what a read found; Horizon is where the reader stands when More is false.
type HistoryPage struct {
	Events  []HistoryEvent
	More    bool
	Horizon webhooks.Position
}

// HistoryEvent is one event and its place.
type HistoryEvent struct {
	Position webhooks.Position
	Envelope events.Envelope
}

// backfillPage is how many events one step of a backfill writes (one transaction).
const backfillPage = 200

// StartBackfill asks for an endpoint's events since Since.
type StartBackfill struct {
	WorkspaceID string
	WebhookID   string
	Since       time.Time
}

// BackfillView is how a backfill is shown.
type BackfillView struct {
	ID         string     `json:"id"`
	WebhookID  string     `json:"webhookId"`
	Since      time.Time  `json:"since"`
	Status     string     `json:"status"`
	Enqueued   int        `json:"enqueued"`
	CreatedAt  time.Time  `json:"createdAt"`
	FinishedAt *time.Time `json:"finishedAt"`
}

// ViewBackfill maps a backfill to its shape.
func ViewBackfill(b *webhooks.Backfill) BackfillView {
	return BackfillView{ID: b.ID, WebhookID: b.SubscriptionID, Since: b.Since, Status: string(b.Status), Enqueued: b.Enqueued,
		CreatedAt: b.CreatedAt, FinishedAt: b.FinishedAt}
}

// StartBackfill records a backfill of the endpoint; the backfill worker writes its
// deliveries once this transaction has committed.
func (d Deps) StartBackfill(ctx context.Context, cmd StartBackfill) (BackfillView, error) {
	if d.Backfills == nil {
		return BackfillView{}, fmt.Errorf("backfills are not wired")
	}
	s, err := d.Subs.Get(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return BackfillView{}, err
	}
	b, err := d.startBackfill(ctx, s, cmd.Since)
	if err != nil {
		return BackfillView{}, err
	}
	return ViewBackfill(b), nil
}

func (d Deps) startBackfill(ctx context.Context, s *webhooks.Subscription, since time.Time) (*webhooks.Backfill, error) {
	if last, err := d.Backfills.Latest(ctx, s.WorkspaceID, s.ID); err != nil {
		return nil, err
	} else if last != nil && last.Status == webhooks.BackfillRunning {
		return nil, kernel.Invalid("backfillSince", "webhook %s has a backfill running (%s); wait for it to finish", s.ID, last.ID)
	}
	now := d.Clock.Now()
	b, err := webhooks.NewBackfill(d.IDs.New(webhooks.BackfillIDPrefix), s, since, now)
	if err != nil {
		return nil, err
	}
	if err := d.Backfills.Add(ctx, b); err != nil {
		return nil, err
	}
	return b, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: s.WorkspaceID, Action: "webhook.backfill_started", Target: s.ID,
		Detail: "events since " + b.Since.Format(time.RFC3339)})
}

// RunBackfillHandler runs one step of the oldest backfill due: one page of events
// written as deliveries, in its own transaction, under a lease so that one instance
// runs a backfill at a time.
type RunBackfillHandler struct{ d Deps }

// NewRunBackfillHandler builds the handler.
func NewRunBackfillHandler(d Deps) RunBackfillHandler { return RunBackfillHandler{d: d} }

// Handle runs one step; busy tells that more steps may follow at once.
func (h RunBackfillHandler) Handle(ctx context.Context) (busy bool, err error) {
	d := h.d
	if d.Backfills == nil || d.History == nil {
		return false, nil
	}
	now := d.Clock.Now()
	token := d.IDs.New("lease")
	b, err := d.Backfills.Lease(ctx, now, now.Add(d.Settings.Lease), token)
	if err != nil || b == nil {
		return false, err
	}
	progressed := false
	err = d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		progressed, err = h.step(ctx, b, token)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("backfill %s: %w", b.ID, err)
	}
	return progressed, nil
}

// step writes one page of b. The first step fixes b.Stop: it runs after the endpoint was
// committed (it reads the backfill, which commits with the endpoint or after it), so
// every event whose fan-out could not see the endpoint lies at or before that tail.
func (h RunBackfillHandler) step(ctx context.Context, b *webhooks.Backfill, token string) (bool, error) {
	d := h.d
	s, err := d.Subs.Get(ctx, b.WorkspaceID, b.SubscriptionID)
	if err != nil {
		return false, err
	}
	if s.Status == webhooks.Disabled {
		return false, nil // waits, leased, until the endpoint is enabled: no deliveries for a disabled endpoint
	}
	if b.Stop == nil {
		tail, err := d.History.Tail(ctx)
		if err != nil {
			return false, err
		}
		b.Stop = &tail
	}
	page, err := d.History.Read(ctx, HistoryRead{WorkspaceID: b.WorkspaceID, Types: s.Events, Since: b.Since, After: b.After, Limit: backfillPage})
	if err != nil {
		return false, err
	}
	now := d.Clock.Now()
	added, at := 0, b.After
	for _, ev := range page.Events {
		payload, err := d.render(max(s.PayloadVersion, 1), ev.Envelope)
		if err != nil {
			return false, err
		}
		// Created and due at the event's time, as the fan-out writes live deliveries: claims
		// (and an ordered endpoint's head of line) take them in that order, so the backfill
		// goes out in event order, ahead of live deliveries of later events.
		created := now
		if t := ev.Envelope.CreatedAt.UTC(); t.Before(now) {
			created = t
		}
		dl := webhooks.NewDelivery(d.IDs.New(webhooks.DeliveryIDPrefix), s, ev.Envelope.ID, string(ev.Envelope.Type), payload, created)
		dl.UpdatedAt = now
		ok, err := d.Deliveries.AddIfAbsent(ctx, dl)
		if err != nil {
			return false, err
		}
		if ok {
			added++
		}
		at = ev.Position
	}
	if !page.More && at.Before(page.Horizon) {
		at = page.Horizon
	}
	before := b.After
	b.Advance(at, added, page.More, now)
	saved, err := d.Backfills.Save(ctx, b, token)
	if err != nil {
		return false, err
	}
	if !saved {
		return false, ErrLeaseLost
	}
	if added > 0 {
		d.Waker.Wake(ctx)
	}
	return b.Status == webhooks.BackfillRunning && (page.More || before.Before(b.After)), nil
}

// backfillStepsPerRun bounds one run of the worker (200 events a step).
const backfillStepsPerRun = 50

// Run runs steps while they make progress (the backfill worker calls it every second);
// it returns how many ran.
func (h RunBackfillHandler) Run(ctx context.Context) (int, error) {
	for n := 0; n < backfillStepsPerRun; n++ {
		busy, err := h.Handle(ctx)
		if err != nil || !busy || ctx.Err() != nil {
			return n, err
		}
	}
	return backfillStepsPerRun, nil
}

// LatestBackfill asks for an endpoint's newest backfill.
type LatestBackfill struct {
	WorkspaceID string
	WebhookID   string
}

// LatestBackfill returns the endpoint's newest backfill, nil when it has none.
func (d Deps) LatestBackfill(ctx context.Context, q LatestBackfill) (*BackfillView, error) {
	if _, err := d.Subs.Get(ctx, q.WorkspaceID, q.WebhookID); err != nil {
		return nil, err
	}
	if d.Backfills == nil {
		return nil, nil
	}
	b, err := d.Backfills.Latest(ctx, q.WorkspaceID, q.WebhookID)
	if err != nil || b == nil {
		return nil, err
	}
	v := ViewBackfill(b)
	return &v, nil
}
