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
// the same transaction. If the batch fails, each attempt is recorded on its own. A batch
// of successes takes one atomic write instead (succeeded).
func (h RecordAttemptHandler) Handle(ctx context.Context, cmds ...RecordAttempt) []Recorded {
	if out, ok := h.succeeded(ctx, cmds); ok {
		return out
	}
	return h.inTx(ctx, cmds)
}

// inTx records the batch in one transaction, or attempt by attempt if that fails.
func (h RecordAttemptHandler) inTx(ctx context.Context, cmds []RecordAttempt) []Recorded {
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
		out[i] = h.inTx(ctx, []RecordAttempt{cmd})[0]
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
	var ended []*webhooks.Delivery // the deliveries' states after their attempts
	for i, cmd := range cmds {
		d := fs[i].Delivery
		if !saved[i] {
			attempts[i], d, out[i].Err = h.reread(ctx, cmd)
			if errors.Is(out[i].Err, ErrLeaseLost) {
				continue
			}
			if out[i].Err != nil {
				return nil, out[i].Err
			}
		}
		out[i].Outcome = attempts[i].Outcome
		logged = append(logged, attempts[i])
		ended = append(ended, d)
	}
	if err := h.d.Deliveries.AddAttempts(ctx, logged); err != nil {
		return nil, err
	}
	if err := h.publishExhausted(ctx, ended); err != nil {
		return nil, err
	}
	if err := h.streaks(ctx, logged); err != nil {
		return nil, err
	}
	return out, h.pauses(ctx, cmds, out) // after streaks: the endpoint is locked already
}

// succeeded records a batch whose attempts all succeeded with one atomic write and no
// transaction of its own (one statement on PostgreSQL): each saved delivery's new state,
// its attempt line, and the end of its endpoint's failing streak (a success disables
// nothing, so no endpoint needs its lock). An attempt that write skipped (its lease lost,
// or its delivery resent in flight) is then recorded as before, on its own. ok is false
// when the batch holds a failure or the write failed (it wrote nothing then).
func (h RecordAttemptHandler) succeeded(ctx context.Context, cmds []RecordAttempt) (out []Recorded, ok bool) {
	fs := make([]webhooks.Finished, len(cmds))
	attempts := make([]webhooks.Attempt, len(cmds))
	for i, cmd := range cmds {
		if webhooks.Classify(cmd.Result) != webhooks.Succeeded {
			return nil, false
		}
		d := *cmd.Lease.Delivery // a copy: the fallback records from the claimed state
		attempts[i] = d.RecordAttempt(cmd.Result, cmd.At, h.d.Settings.Policy)
		fs[i] = webhooks.Finished{Delivery: &d, Token: cmd.Lease.Token, Cycle: cmd.Lease.Delivery.CycleAttempts}
	}
	saved, err := h.d.Dispatch.FinishSucceeded(ctx, fs, attempts)
	if err != nil {
		return nil, false
	}
	out = make([]Recorded, len(cmds))
	for i, cmd := range cmds {
		if saved[i] {
			out[i].Outcome = attempts[i].Outcome
		} else {
			out[i] = h.inTx(ctx, []RecordAttempt{cmd})[0]
		}
	}
	return out, true
}

// reread records an attempt Finish did not save: the lease is lost (ErrLeaseLost), or the
// delivery was resent while in flight and the attempt applies to its stored state.
func (h RecordAttemptHandler) reread(ctx context.Context, cmd RecordAttempt) (webhooks.Attempt, *webhooks.Delivery, error) {
	ws, token := cmd.Lease.Delivery.WorkspaceID, cmd.Lease.Token
	d, err := h.d.Dispatch.GetLeased(ctx, ws, cmd.Lease.Delivery.ID, token)
	if kernel.IsNotFound(err) {
		return webhooks.Attempt{}, nil, ErrLeaseLost
	}
	if err != nil {
		return webhooks.Attempt{}, nil, err
	}
	attempt := d.RecordAttempt(cmd.Result, cmd.At, h.d.Settings.Policy)
	return attempt, d, h.d.Dispatch.Complete(ctx, d, token)
}
