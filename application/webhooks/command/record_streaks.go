package command

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// streaks applies the auto-disable rule (docs/webhooks.md) to a batch's logged attempts,
// endpoint by endpoint in attempt order. Endpoints whose attempts all succeeded have their
// streaks cleared with one statement per workspace; an endpoint with a failure is locked,
// its attempts replayed in memory, and saved once. Endpoints are taken in id order so that
// concurrent batches lock them in the same order.
func (h RecordAttemptHandler) streaks(ctx context.Context, logged []webhooks.Attempt) error {
	byEndpoint := map[string][]webhooks.Attempt{}
	failed := map[string]bool{}
	for _, a := range logged {
		byEndpoint[a.SubscriptionID] = append(byEndpoint[a.SubscriptionID], a)
		if a.Outcome != webhooks.Succeeded {
			failed[a.SubscriptionID] = true
		}
	}
	healthy := map[string][]string{} // workspace: endpoints
	var workspaces []string
	for _, id := range slices.Sorted(maps.Keys(byEndpoint)) {
		as := byEndpoint[id]
		ws := as[0].WorkspaceID
		if failed[id] {
			if err := h.replay(ctx, ws, id, as); err != nil {
				return err
			}
			continue
		}
		if _, ok := healthy[ws]; !ok {
			workspaces = append(workspaces, ws)
		}
		healthy[ws] = append(healthy[ws], id)
	}
	for _, ws := range workspaces {
		if err := h.d.Subs.MarkHealthy(ctx, ws, healthy[ws]); err != nil {
			return err
		}
	}
	return nil
}

// replay applies an endpoint's attempts, in order, to its locked row: a success ends the
// streak, a failure starts it or, once it is DisableAfter long, disables the endpoint and
// queues the owner's notice; the operational events of the endpoint are published with them.
func (h RecordAttemptHandler) replay(ctx context.Context, ws, id string, as []webhooks.Attempt) error {
	s, err := h.d.Subs.GetForUpdate(ctx, ws, id)
	if err != nil {
		return err
	}
	dirty, ended, alerted := false, false, false
	var notices []webhooks.Notice
	var evs []events.Event
	for _, a := range as {
		if a.Outcome == webhooks.Succeeded {
			if s.FailingSince != nil {
				s.FailingSince, dirty, ended, alerted = nil, true, true, false
			}
			continue
		}
		wasHealthy := s.FailingSince == nil
		disabled := s.RecordFailure(a.At, h.d.Settings.DisableAfter)
		dirty = dirty || wasHealthy || disabled
		more, err := h.endpointEvents(ctx, s, a, disabled, &alerted)
		if err != nil {
			return err
		}
		evs = append(evs, more...)
		if disabled {
			owner, err := h.d.Workspaces.OwnerEmail(ctx, ws)
			if err != nil {
				return err
			}
			n := webhooks.DisabledNotice(h.d.IDs.New(webhooks.NoticeIDPrefix), owner, s, h.d.Settings.DisableAfter, a.At)
			notices = append(notices, n.WithLink("Why it failed, and recovering the missed deliveries, in the dashboard", h.d.Settings.endpointPage(ws, s.ID)))
		}
	}
	if dirty {
		if err := h.d.Subs.Save(ctx, s); err != nil {
			return err
		}
	}
	if ended && h.d.Gates != nil {
		// The receiver is back: its waiting retries go now.
		if _, err := h.d.Gates.BringForward(ctx, ws, []string{id}, time.Time{}, false); err != nil {
			return err
		}
	}
	for _, n := range notices {
		if err := h.d.Notices.Add(ctx, n); err != nil {
			return err
		}
	}
	if len(evs) == 0 {
		return nil
	}
	return h.d.Publisher.Publish(ctx, evs...)
}
