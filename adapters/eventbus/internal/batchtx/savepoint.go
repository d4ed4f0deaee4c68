package batchtx

import "context"

// Savepoint says whether the transaction it belongs to still holds the savepoint of
// its last event applied. On PostgreSQL the router leaves that savepoint open and releases
// it in the next event's first round trip (or lets the commit release it): one round trip
// per event and consumer instead of three. Without one in the context (replay, rebuild
// paths), every attempt releases its own savepoint.
type Savepoint struct {
	Open bool
	// AsyncCommit: the transaction may commit without waiting for its WAL flush (the SQL
	// transport on PostgreSQL, router.asyncCommitFirst); AsyncSet: the first attempt said so.
	AsyncCommit, AsyncSet bool
}

type savepointKey struct{}

// WithSavepoint gives ctx, whose transaction has no consumer savepoint yet, the
// tracking of one; one per transaction.
func WithSavepoint(ctx context.Context, s *Savepoint) context.Context {
	return context.WithValue(ctx, savepointKey{}, s)
}

// SavepointFrom returns ctx's savepoint tracking; ok is false when it has none.
func SavepointFrom(ctx context.Context) (s *Savepoint, ok bool) {
	s, ok = ctx.Value(savepointKey{}).(*Savepoint)
	return s, ok
}
