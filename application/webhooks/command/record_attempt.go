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
	var out []Recorded
	err := h.d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		var err error
		out, err = h.batch(ctx, cmds)
		return err
	})
	if err == nil {
		return out
	}
	if len(cmds) == 1 {
		return []Recorded{{Err: fmt.Errorf("record attempt: %w", err)}}
	}
	out = make([]Recorded, len(cmds))
	for i, cmd := range cmds {
		out[i] = h.Handle(ctx, cmd)[0]
	}
	return out
}

// batch saves every delivery's new state with one statement, computed from the claimed
// copy (nothing else changes a leased delivery but a resend, which Finish detects), then
// the attempt log with one statement, then the endpoints' failing streaks.
func (h RecordAttemptHandler) batch(ctx context.Context, cmds []RecordAttempt) ([]Recorded, error) {
	out := make([]Recorded, len(cmds))
	attempts := make([]webhooks.Attempt, len(cmds))
	fs := make([]webhooks.Finished, len(cmds))
	for i, cmd := range cmds {
		d := *cmd.Lease.Delivery // a copy: a failed batch is recorded again attempt by attempt
		attempts[i] = d.RecordAttempt(cmd.Result, cmd.At, h.d.Settings.Policy)
		fs[i] = webhooks.Finished{Delivery: &d, Token: cmd.Lease.Token, Cycle: cmd.Lease.Delivery.CycleAttempts}
	}
	saved, err := h.d.Dispatch.Finish(ctx, fs)
	if err != nil {
		return nil, err
	}
	logged := make([]webhooks.Attempt, 0, len(cmds))
	for i, cmd := range cmds {
		if !saved[i] {
			attempts[i], out[i].Err = h.reread(ctx, cmd)
			if errors.Is(out[i].Err, ErrLeaseLost) {
				continue
			}
			if out[i].Err != nil {
				return nil, out[i].Err
			}
		}
		out[i].Outcome = attempts[i].Outcome
		logged = append(logged, attempts[i])
	}
	if err := h.d.Deliveries.AddAttempts(ctx, logged); err != nil {
		return nil, err
	}
	return out, h.streaks(ctx, logged)
}

// reread records an attempt Finish did not save: the lease is lost (ErrLeaseLost), or the
// delivery was resent while in flight and the attempt applies to its stored state.
func (h RecordAttemptHandler) reread(ctx context.Context, cmd RecordAttempt) (webhooks.Attempt, error) {
	ws, token := cmd.Lease.Delivery.WorkspaceID, cmd.Lease.Token
	d, err := h.d.Dispatch.GetLeased(ctx, ws, cmd.Lease.Delivery.ID, token)
	if kernel.IsNotFound(err) {
		return webhooks.Attempt{}, ErrLeaseLost
	}
	if err != nil {
		return webhooks.Attempt{}, err
	}
	attempt := d.RecordAttempt(cmd.Result, cmd.At, h.d.Settings.Policy)
	return attempt, h.d.Dispatch.Complete(ctx, d, token)
}
