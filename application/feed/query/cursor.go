package query

import (
	"errors"
	"time"
)

// Cursor is where a reader resumes: a position and the instant it stands for. Every
// event after the position was created at or after about Stamp (the last item's
// created_at, or the time of the read at the tail), so once Stamp is older than the
// outbox's retention, events after the position may have been deleted.
type Cursor struct {
	Position Position
	Stamp    time.Time
}

// expiryMargin covers events created a little before the stamp that commit after it
// (a transaction's duration), and clocks a little apart.
const expiryMargin = 5 * time.Minute

// ErrCursorExpired refuses a cursor older than the retention: the feed cannot tell
// whether events after it were deleted, and jumping silently would skip them.
var ErrCursorExpired = errors.New("cursor is older than the events' retention")

// Expired tells whether c may point past events that retention deleted by now.
func (c Cursor) Expired(now time.Time, retention time.Duration) bool {
	return c.Stamp.Before(now.Add(-retention + expiryMargin))
}
