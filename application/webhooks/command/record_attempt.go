package command

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// ErrLeaseLost reports an attempt whose lease another dispatcher took over (it outlived
// the lease): its result is dropped, the new holder records its own.
var ErrLeaseLost = errors.New("delivery lease lost")

// RecordAttempt is the outcome of one attempt of a leased delivery.
type RecordAttempt struct {
	Lease  webhooks.Lease
	At     time.Time // when the attempt started
	Result webhooks.Result
}

// RecordAttemptHandler handles RecordAttempt.
type RecordAttemptHandler struct{ d Deps }

// NewRecordAttemptHandler builds the handler.
func NewRecordAttemptHandler(d Deps) RecordAttemptHandler { return RecordAttemptHandler{d: d} }

// Recorded is the result of recording one attempt.
type Recorded struct {
	Outcome webhooks.Outcome
	Err     error
}

// Handle records attempts in one transaction (a commit per attempt would bound the
// dispatcher's throughput). Each is logged, its next attempt scheduled or its delivery
// ended, and the auto-disable rule applied; a disable queues the owner's e-mail notice in
// the same transaction. If the batch fails, each attempt is recorded on its own.
func (h RecordAttemptHandler) Handle(ctx context.Context, cmds ...RecordAttempt) []Recorded {
	out := make([]Recorded, len(cmds))
	err := h.d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		healthy := map[string]bool{} // endpoints already marked healthy in this batch
		for i, cmd := range cmds {
			out[i].Outcome, out[i].Err = h.one(ctx, cmd, healthy)
			if out[i].Err != nil && !errors.Is(out[i].Err, ErrLeaseLost) {
				return out[i].Err
			}
		}
		return nil
	})
	if err == nil {
		return out
	}
	if len(cmds) == 1 {
		return []Recorded{{Err: fmt.Errorf("record attempt: %w", err)}}
	}
	for i, cmd := range cmds {
		out[i] = h.Handle(ctx, cmd)[0]
	}
	return out
}

func (h RecordAttemptHandler) one(ctx context.Context, cmd RecordAttempt, healthy map[string]bool) (webhooks.Outcome, error) {
	ws, token := cmd.Lease.Delivery.WorkspaceID, cmd.Lease.Token
	d, err := h.d.Dispatch.GetLeased(ctx, ws, cmd.Lease.Delivery.ID, token)
	if kernel.IsNotFound(err) {
		return "", ErrLeaseLost
	}
	if err != nil {
		return "", err
	}
	attempt := d.RecordAttempt(cmd.Result, cmd.At, h.d.Settings.Policy)
	if err := h.d.Deliveries.AddAttempt(ctx, attempt); err != nil {
		return "", err
	}
	if err := h.d.Dispatch.Complete(ctx, d, token); err != nil {
		return "", err
	}
	if attempt.Outcome == webhooks.Succeeded {
		if healthy[d.SubscriptionID] {
			return attempt.Outcome, nil
		}
		healthy[d.SubscriptionID] = true
		return attempt.Outcome, h.d.Subs.MarkHealthy(ctx, ws, d.SubscriptionID)
	}
	delete(healthy, d.SubscriptionID) // a later success in the batch must clear the streak again
	return attempt.Outcome, h.failed(ctx, ws, d.SubscriptionID, cmd.At)
}

func (h RecordAttemptHandler) failed(ctx context.Context, ws, subID string, at time.Time) error {
	s, err := h.d.Subs.GetForUpdate(ctx, ws, subID)
	if err != nil {
		return err
	}
	wasHealthy := s.FailingSince == nil
	disabled := s.RecordFailure(at, h.d.Settings.DisableAfter)
	if !wasHealthy && !disabled {
		return nil
	}
	if err := h.d.Subs.Save(ctx, s); err != nil {
		return err
	}
	if !disabled {
		return nil
	}
	owner, err := h.d.Workspaces.OwnerEmail(ctx, ws)
	if err != nil {
		return err
	}
	return h.d.Notices.Add(ctx, webhooks.DisabledNotice(h.d.IDs.New(webhooks.NoticeIDPrefix), owner, s, h.d.Settings.DisableAfter, at))
}
