package command

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Notice sending: a notice is leased for noticeLease, sent, then marked sent. A crash
// between sending and marking sends it again after the lease: at least once.
const (
	noticeLease = 5 * time.Minute
	noticeRetry = time.Minute
	noticeBatch = 20
)

// SendNoticesHandler sends the e-mail notices that are due.
type SendNoticesHandler struct{ d Deps }

// NewSendNoticesHandler builds the handler.
func NewSendNoticesHandler(d Deps) SendNoticesHandler { return SendNoticesHandler{d: d} }

// Handle returns how many notices were sent; a failed one is retried a minute later.
// Each notice stands alone: one that cannot be sent or marked never holds back the
// others of the batch (their errors are joined).
func (h SendNoticesHandler) Handle(ctx context.Context) (int, error) {
	now := h.d.Clock.Now()
	due, err := h.d.Notices.ClaimDue(ctx, now, now.Add(noticeLease), noticeBatch)
	if err != nil {
		return 0, fmt.Errorf("send notices: %w", err)
	}
	sent := 0
	var errs []error
	for _, n := range due {
		if err := h.d.Mailer.Send(ctx, n); err != nil {
			if merr := h.d.Notices.MarkFailed(ctx, n.WorkspaceID, n.ID, err.Error(), h.d.Clock.Now().Add(noticeRetry)); merr != nil {
				errs = append(errs, fmt.Errorf("notice %s: %w", n.ID, merr))
			}
			continue
		}
		if err := h.d.Notices.MarkSent(ctx, n.WorkspaceID, n.ID, h.d.Clock.Now()); err != nil {
			errs = append(errs, fmt.Errorf("notice %s: %w", n.ID, err))
			continue
		}
		sent++
	}
	if err := errors.Join(errs...); err != nil {
		return sent, fmt.Errorf("send notices: %w", err)
	}
	return sent, nil
}

// PruneLogHandler deletes the delivery log past retention.
type PruneLogHandler struct{ d Deps }

// NewPruneLogHandler builds the handler.
func NewPruneLogHandler(d Deps) PruneLogHandler { return PruneLogHandler{d: d} }

// Handle deletes attempts and finished deliveries older than the retention (30 days).
func (h PruneLogHandler) Handle(ctx context.Context) (int, error) {
	n, err := h.d.Retention.Prune(ctx, h.d.Clock.Now().Add(-h.d.Settings.Retention))
	if err != nil {
		return n, fmt.Errorf("prune webhook log: %w", err)
	}
	return n, nil
}
