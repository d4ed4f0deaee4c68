package router

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx/types"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// Failure is an event a consumer parked after its retries.
type Failure struct {
	Consumer      string         `json:"consumer" db:"consumer"`
	EventID       string         `json:"eventId" db:"event_id"`
	EventType     string         `json:"eventType" db:"event_type"`
	Payload       types.JSONText `json:"payload" db:"payload"`
	Error         string         `json:"error" db:"error"`
	Attempts      int            `json:"attempts" db:"attempts"`
	FirstFailedAt time.Time      `json:"firstFailedAt" db:"first_failed_at"`
	LastFailedAt  time.Time      `json:"lastFailedAt" db:"last_failed_at"`
	ReplayedAt    *time.Time     `json:"replayedAt" db:"replayed_at"`
}

// Failures lists parked events, of one consumer or ("") of all, replayed ones included.
func (l *Ledger) Failures(ctx context.Context, consumer string) ([]Failure, error) {
	out := []Failure{}
	var err error
	if consumer == "" {
		err = l.db.Read(ctx).SelectContext(ctx, &out, l.listAll)
	} else {
		err = l.db.Read(ctx).SelectContext(ctx, &out, l.list, consumer)
	}
	if err != nil {
		return nil, fmt.Errorf("list parked events: %w", err)
	}
	return out, nil
}

// Replayed is the outcome of replaying one parked event.
type Replayed struct {
	Consumer string `json:"consumer"`
	EventID  string `json:"eventId"`
	Replayed bool   `json:"replayed"`
	Error    string `json:"error,omitempty"`
}

// Replay runs the parked, not yet replayed events (filtered by consumer and event id
// when not empty) through their consumer again, each in its own transaction, and marks
// those that succeed replayed. One that fails again stays parked with its attempt counted.
func (l *Ledger) Replay(ctx context.Context, consumers []events.Consumer, consumer, eventID string) ([]Replayed, error) {
	var pending []Failure
	if err := l.db.Read(ctx).SelectContext(ctx, &pending, l.pending, consumer, consumer, eventID, eventID); err != nil {
		return nil, fmt.Errorf("list parked events: %w", err)
	}
	byName := map[string]events.Consumer{}
	for _, c := range consumers {
		byName[c.Name] = c
	}
	out := []Replayed{}
	for _, f := range pending {
		res := Replayed{Consumer: f.Consumer, EventID: f.EventID}
		if err := l.replayOne(ctx, byName, f); err != nil {
			res.Error = err.Error()
			if rerr := l.recordFailure(ctx, f, err); rerr != nil {
				return out, rerr
			}
		} else {
			res.Replayed = true
		}
		out = append(out, res)
	}
	return out, nil
}

func (l *Ledger) replayOne(ctx context.Context, byName map[string]events.Consumer, f Failure) error {
	c, ok := byName[f.Consumer]
	if !ok {
		return fmt.Errorf("no consumer named %q is registered", f.Consumer)
	}
	var ev events.Envelope
	if err := json.Unmarshal(f.Payload, &ev); err != nil {
		return fmt.Errorf("decode envelope: %w", err)
	}
	return l.db.WithinTx(ctx, func(ctx context.Context) error {
		if _, err := l.applyOnce(ctx, c, ev); err != nil {
			return err
		}
		if _, err := l.db.Write(ctx).ExecContext(ctx, l.markReplayed, l.now(), f.Consumer, f.EventID); err != nil {
			return fmt.Errorf("mark %s replayed: %w", f.EventID, err)
		}
		return nil
	})
}

func (l *Ledger) recordFailure(ctx context.Context, f Failure, cause error) error {
	if _, err := l.db.Writer.ExecContext(ctx, l.recordRetryFailure, sqldb.Text(cause.Error()), l.now(), f.Consumer, f.EventID); err != nil {
		return fmt.Errorf("record failed replay of %s: %w", f.EventID, err)
	}
	return nil
}
