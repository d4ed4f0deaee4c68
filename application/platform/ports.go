// Package platform declares what every use case needs from the outside world:
// transactions, time, identifiers and the outbox. Adapters implement these ports.
package platform

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
)

// Transactor runs fn in one database transaction carried by the context.
// A nested call joins the outer transaction.
type Transactor interface {
	WithinTx(ctx context.Context, fn func(ctx context.Context) error) error
	// WithinSavepoint runs fn so that its error undoes only its own writes: under a
	// savepoint of the transaction in ctx, or in a transaction of its own.
	WithinSavepoint(ctx context.Context, fn func(ctx context.Context) error) error
}

// Clock tells the time, in UTC.
type Clock interface {
	Now() time.Time
}

// IDs makes prefixed, time-sortable identifiers (crs_..., key_...).
type IDs interface {
	New(prefix string) string
}

// Publisher records events in the outbox of the transaction in ctx, so that they
// become visible exactly when the change that caused them commits.
type Publisher interface {
	Publish(ctx context.Context, evs ...events.Event) error
}
