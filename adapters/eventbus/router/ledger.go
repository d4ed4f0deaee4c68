package router

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Ledger records, in the caller's transaction, which events each consumer applied
// (event_processed) and which it parked after failing (event_failures).
type Ledger struct {
	db                                 *sqldb.DB
	clock                              platform.Clock
	markProcessed, park, list, listAll string
	// On PostgreSQL, one round trip each (simple protocol, enterAttempt): the attempt's
	// savepoint and its marker, after releasing the previous event's savepoint (enterNext) or not.
	enterFirst, enterNext                     string
	markReplayed, recordRetryFailure, pending string
}

// NewLedger prepares the ledger's statements for db's dialect.
func NewLedger(db *sqldb.DB, clock platform.Clock) *Ledger {
	const columns = `consumer, event_id, event_type, payload, error, attempts, first_failed_at, last_failed_at, replayed_at`
	return &Ledger{
		db: db, clock: clock,
		markProcessed: db.Rebind(markProcessed),
		enterFirst:    "SAVEPOINT " + savepoint + "; " + db.Rebind(markProcessed),
		enterNext:     "RELEASE SAVEPOINT " + savepoint + "; SAVEPOINT " + savepoint + "; " + db.Rebind(markProcessed),
		// Parked again (a duplicate delivery failing once more): count the attempts, reopen it.
		park: db.Rebind(`INSERT INTO event_failures (consumer, event_id, event_type, payload, error, attempts, first_failed_at, last_failed_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (consumer, event_id) DO UPDATE SET error = excluded.error,
				attempts = event_failures.attempts + excluded.attempts,
				last_failed_at = excluded.last_failed_at, replayed_at = NULL`),
		list:    db.Rebind(`SELECT ` + columns + ` FROM event_failures WHERE consumer = ? ORDER BY first_failed_at, event_id`),
		listAll: `SELECT ` + columns + ` FROM event_failures ORDER BY consumer, first_failed_at, event_id`,
		pending: db.Rebind(`SELECT ` + columns + ` FROM event_failures WHERE replayed_at IS NULL
			AND (? = '' OR consumer = ?) AND (? = '' OR event_id = ?) ORDER BY consumer, first_failed_at, event_id`),
		markReplayed:       db.Rebind(`UPDATE event_failures SET replayed_at = ? WHERE consumer = ? AND event_id = ?`),
		recordRetryFailure: db.Rebind(`UPDATE event_failures SET attempts = attempts + 1, error = ?, last_failed_at = ? WHERE consumer = ? AND event_id = ?`),
	}
}

// asyncCommitFirst lets a batch transaction of the SQL transport commit without waiting
// for PostgreSQL to flush its WAL. Safe there because everything the batch does commits or
// vanishes together with its position: a server crash that loses the last commits (at most
// about three wal_writer_delay, 600 ms by default) loses effects, ledger rows and position
// alike, and the events are applied again; a webhook handed to the dispatcher by a lost
// batch is sent again (at least once, same event id). Never with a broker, whose position
// is its ack, nor for the API's writes.
const asyncCommitFirst = "SET LOCAL synchronous_commit TO OFF; "

// markProcessed records that a consumer applied an event; nothing when it did before.
const markProcessed = `INSERT INTO event_processed (consumer, event_id, processed_at) VALUES (?, ?, ?)
	ON CONFLICT (consumer, event_id) DO NOTHING`

// applyOnce runs c.Handle on ev unless c already applied it, in the transaction of ctx.
// It reports whether Handle ran. The marker and Handle's writes commit or vanish together.
func (l *Ledger) applyOnce(ctx context.Context, c events.Consumer, ev events.Envelope) (bool, error) {
	res, err := l.db.Write(ctx).ExecContext(ctx, l.markProcessed, c.Name, ev.ID, l.now())
	return l.handleIfFirst(ctx, c, ev, res, err)
}

// enterAttempt releases the savepoint the previous event left open in this transaction
// (PostgreSQL), opens the attempt's savepoint and marks ev processed by c, in one round trip
// where it can, then runs c.Handle unless c applied ev before. It reports whether Handle ran.
// On error the attempt's savepoint may or may not exist: the caller rolls back to it.
// With asyncCommit (PostgreSQL) the same round trip makes the transaction commit without
// waiting for its WAL flush (asyncCommitFirst).
func (l *Ledger) enterAttempt(ctx context.Context, c events.Consumer, ev events.Envelope, releasePrevious, asyncCommit bool) (bool, error) {
	q := l.db.Write(ctx)
	if l.db.Dialect == sqldb.Postgres {
		stmt := l.enterFirst
		if releasePrevious {
			stmt = l.enterNext
		}
		if asyncCommit {
			stmt = asyncCommitFirst + stmt
		}
		res, err := q.ExecContext(ctx, stmt, sqldb.SimpleProtocol, c.Name, ev.ID, l.now())
		return l.handleIfFirst(ctx, c, ev, res, err)
	}
	if releasePrevious {
		if _, err := q.ExecContext(ctx, "RELEASE SAVEPOINT "+savepoint); err != nil {
			return false, savepointError{fmt.Errorf("release savepoint: %w", err)}
		}
	}
	if _, err := q.ExecContext(ctx, "SAVEPOINT "+savepoint); err != nil {
		return false, savepointError{fmt.Errorf("savepoint: %w", err)}
	}
	return l.applyOnce(ctx, c, ev)
}

// handleIfFirst runs c.Handle when the marker's insert (res, err) added a row.
func (l *Ledger) handleIfFirst(ctx context.Context, c events.Consumer, ev events.Envelope, res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, fmt.Errorf("mark %s processed by %s: %w", ev.ID, c.Name, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, fmt.Errorf("mark %s processed by %s: %w", ev.ID, c.Name, err)
	} else if n == 0 {
		return false, nil // applied before: a redelivery or a replay changes nothing
	}
	if err := safeHandle(ctx, c, ev); err != nil {
		return false, err
	}
	return true, nil
}

// safeHandle turns a panic into an error, so a bug parks the event like any failure.
func safeHandle(ctx context.Context, c events.Consumer, ev events.Envelope) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("consumer %s panicked on %s: %v", c.Name, ev.ID, p)
		}
	}()
	return c.Handle(ctx, ev)
}

// parkFailed records that consumer gave up on the event after attempts, in ctx's transaction.
func (l *Ledger) parkFailed(ctx context.Context, consumer string, ev events.Envelope, payload []byte, cause error, attempts int) error {
	if !json.Valid(payload) {
		payload, _ = json.Marshal(string(payload)) // keep an undecodable payload readable as JSON
	}
	now := l.now()
	if _, err := l.db.Write(ctx).ExecContext(ctx, l.park, consumer, ev.ID, string(ev.Type), sqldb.Text(string(payload)), sqldb.Text(cause.Error()), attempts, now, now); err != nil {
		return fmt.Errorf("park %s for %s: %w", ev.ID, consumer, err)
	}
	return nil
}

func (l *Ledger) now() time.Time { return l.clock.Now().UTC() }
