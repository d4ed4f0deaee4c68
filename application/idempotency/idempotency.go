// Package idempotency runs a request once per client-chosen key: the first run's answer
// is stored in the transaction of its change, and a repeat within the window gets that
// answer back instead of running again. It knows nothing of HTTP: the port says what a
// request's fingerprint is and what its answer holds.
package idempotency

import (
	"context"
	"errors"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Window is how long a stored answer is replayed; after it the key is free again and
// the purge deletes the record.
const Window = 24 * time.Hour

// PurgeEvery is how often the background purge runs; PurgeBatch bounds one delete (on
// SQLite it holds the single writer).
const (
	PurgeEvery = time.Hour
	PurgeBatch = 1000
)

// Key names a record: the client's value within one API key of one workspace, so that
// two keys (or workspaces) may use the same value independently.
type Key struct {
	WorkspaceID string
	KeyID       string
	Value       string
}

// Answer is what a run answered, stored as is and replayed byte for byte.
type Answer struct {
	Status      int
	ContentType string
	Body        []byte
}

// Stored tells whether an answer is kept: only successes (2xx). An error is not
// replayed: its transaction rolled back, and a retry runs again.
func (a Answer) Stored() bool { return a.Status >= 200 && a.Status < 300 }

// Record is a stored answer with the fingerprint of the request that made it.
type Record struct {
	Fingerprint []byte
	Answer
	CreatedAt time.Time
}

// Request is one run under a key. Fingerprint is a hash of what makes two requests the
// same (the port's choice); Run does the work in the transaction of its ctx.
type Request struct {
	Key         Key
	Fingerprint []byte
	Run         func(ctx context.Context) (Answer, error)
}

// Outcome is the answer to send, and whether it is a replay of an earlier run.
type Outcome struct {
	Answer
	Replayed bool
}

// ErrReused is the answer to a key used again with another request (another
// fingerprint) within the window. The port names its key in the 422.
var ErrReused = kernel.Invalid("", "this idempotency key was already used with another request (method, path or body) in the last 24 hours; use a new key for a new request")

// errNoAnswer is a record without an answer seen outside its transaction: the store
// broke its promise that a placeholder is never visible to another transaction.
var errNoAnswer = errors.New("idempotency record has no answer")

// Store keeps the records. Every method works in the transaction of ctx.
type Store interface {
	// Claim inserts a placeholder for key with fingerprint, or takes over a record
	// created before expiredBefore; it reports false when a live record exists. A
	// concurrent claim of the same key waits until the claiming transaction ends: it then
	// finds the record committed, or claims the key if that transaction rolled back.
	Claim(ctx context.Context, key Key, fingerprint []byte, now, expiredBefore time.Time) (bool, error)
	// Get reads the record of key; a placeholder comes back with status 0.
	Get(ctx context.Context, key Key) (Record, error)
	// Complete stores the answer in the placeholder of key.
	Complete(ctx context.Context, key Key, a Answer) error
	// Release deletes the placeholder of key (an answer that is not stored).
	Release(ctx context.Context, key Key) error
	// Purge deletes up to limit records created before cutoff and reports how many.
	Purge(ctx context.Context, cutoff time.Time, limit int) (int, error)
}
