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

// Handle logs the attempt, schedules the next one or ends the delivery, and applies the
// auto-disable rule to the endpoint, all in one transaction; a disable queues the owner's
// e-mail notice in that same transaction.
func (h RecordAttemptHandler) Handle(ctx context.Context, cmd RecordAttempt) (webhooks.Outcome, error) {
	var outcome webhooks.Outcome
	ws, token := cmd.Lease.Delivery.WorkspaceID, cmd.Lease.Token
	err := h.d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		d, err := h.d.Dispatch.GetLeased(ctx, ws, cmd.Lease.Delivery.ID, token)
		if kernel.IsNotFound(err) {
			return ErrLeaseLost
		}
		if err != nil {
			return err
		}
		attempt := d.RecordAttempt(cmd.Result, cmd.At, h.d.Settings.Policy)
		outcome = attempt.Outcome
		if err := h.d.Deliveries.AddAttempt(ctx, attempt); err != nil {
			return err
		}
		if err := h.d.Dispatch.Complete(ctx, d, token); err != nil {
			return err
		}
		if outcome == webhooks.Succeeded {
			return h.d.Subs.MarkHealthy(ctx, ws, d.SubscriptionID)
		}
		return h.failed(ctx, ws, d.SubscriptionID, cmd.At)
	})
	if err != nil {
		return "", fmt.Errorf("record attempt: %w", err)
	}
	return outcome, nil
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
