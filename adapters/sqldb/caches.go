package sqldb

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Caches lets repositories keep rows that rarely change (API keys, catalogue versions) in
// memory without ever serving one that changed: a write that changes a cached row calls
// Invalidate in its transaction, and reads go through a Cache, which uses its entries only
// while this process can prove that it has heard of every committed invalidation. Until
// the process runs its Listener (serve does; one-shot CLI verbs and contract tests do not),
// every read asks the database.
//
//   - PostgreSQL: every instance LISTENs on one channel (caches_postgres.go). Invalidate
//     notifies it in the writer's transaction and, once committed, waits until every live
//     instance has acknowledged (bounded by AckWait). An instance trusts its entries only
//     while its channel has been confirmed, by a ping of its own received back, within
//     the last Trust: one that did not hear the invalidation stops trusting its cache
//     before the writer stops waiting for it.
//   - SQLite: one process serves the file, but CLI verbs write it too. The serving process
//     asks PRAGMA data_version every 2 ms on a connection of its own (it changes with every
//     commit of any other connection or process; a change empties every cache) and trusts
//     its entries for SQLiteTrust (50 ms) after the start of the last answer. Its own writes drop
//     their entries at once; a process that does not serve (a CLI verb) waits SQLiteWait
//     after its commit, by when the server has seen it or stopped trusting its cache.
//
// Entries read while an invalidation or a flush ran are not kept (a generation counter),
// and a read inside a transaction never uses the cache (it must see its own writes).
type Caches struct {
	db    *DB
	epoch time.Time // monotonic origin of trustUntil
	gen   atomic.Uint64
	// trustUntil is when, in nanoseconds since epoch, this instance stops trusting its
	// entries unless its channel is confirmed again (PostgreSQL).
	trustUntil atomic.Int64
	mu         sync.Mutex
	caches     map[string][]flusher
	version    *dataVersionWatch // SQLite
	watching   atomic.Bool       // SQLite: this process runs the watch (it serves)
	ackTimeout atomic.Int64      // invalidations whose wait ended without every acknowledgement
}

// Trust is how long a PostgreSQL instance trusts its entries after the last confirmation
// of its invalidation channel; AckWait bounds an invalidation's wait for acknowledgements,
// longer than Trust so that an instance that never acknowledged distrusts its cache by then.
const (
	Trust   = time.Second
	AckWait = Trust + 500*time.Millisecond
	// SQLiteTrust and SQLiteWait are the same pair for SQLite's data_version watch.
	SQLiteTrust = 50 * time.Millisecond
	SQLiteWait  = SQLiteTrust + 10*time.Millisecond
)

type flusher interface {
	drop(key string)
	flush()
}

func newCaches(db *DB) *Caches {
	c := &Caches{db: db, epoch: time.Now(), caches: map[string][]flusher{}}
	if db.Dialect == SQLite {
		c.version = &dataVersionWatch{db: db}
	}
	return c
}

// Caches returns the database's cache invalidation (one per DB, so per process).
func (db *DB) Caches() *Caches { return db.caches }

// AckTimeouts counts the invalidations whose wait ended before every live instance had
// acknowledged (PostgreSQL): each is an instance that stopped trusting its cache instead.
func (c *Caches) AckTimeouts() int64 { return c.ackTimeout.Load() }

// Trusted tells whether this process may serve cached entries now (what a request would see).
func (c *Caches) Trusted(ctx context.Context) bool {
	_, ok := c.trusted(ctx)
	return ok
}

// trusted returns the generation to store entries under and whether entries may be used.
func (c *Caches) trusted(context.Context) (uint64, bool) {
	gen := c.gen.Load()
	return gen, time.Since(c.epoch).Nanoseconds() < c.trustUntil.Load()
}

// trustUntilAt extends trust to the instant t (never shortens it).
func (c *Caches) trustUntilAt(t time.Time) {
	until := t.Sub(c.epoch).Nanoseconds()
	for {
		cur := c.trustUntil.Load()
		if until <= cur || c.trustUntil.CompareAndSwap(cur, until) {
			return
		}
	}
}

// distrust stops trusting entries until the next confirmation, and forgets them all.
func (c *Caches) distrust() {
	c.trustUntil.Store(0)
	c.flushAll()
}

// apply drops one entry of one cache (an invalidation heard).
func (c *Caches) apply(name, key string) {
	c.gen.Add(1)
	c.mu.Lock()
	fs := c.caches[name]
	c.mu.Unlock()
	for _, f := range fs {
		f.drop(key)
	}
}

func (c *Caches) flushAll() {
	c.gen.Add(1)
	c.mu.Lock()
	var all []flusher
	for _, fs := range c.caches {
		all = append(all, fs...)
	}
	c.mu.Unlock()
	for _, f := range all {
		f.flush()
	}
}

// Invalidate says that the entry key of cache name changed in the transaction of ctx.
// On PostgreSQL it notifies every instance at the commit and, after the commit, waits until
// every live instance has dropped the entry (at most AckWait); on SQLite the other
// connections' data_version tells them. Call it in a WithinTx transaction, so that the
// command returns only after the wait.
func (c *Caches) Invalidate(ctx context.Context, name, key string) error {
	if c.db.Dialect != Postgres {
		return c.settleSQLite(ctx, name, key)
	}
	return c.notify(ctx, name, key)
}

// Cache keeps values by key for one kind of row; every process has its own.
type Cache[V any] struct {
	caches *Caches
	name   string
	max    int
	mu     sync.RWMutex
	m      map[string]V
}

// NewCache registers a cache named name (the name Invalidate takes) holding up to max
// entries (all are forgotten when full).
func NewCache[V any](db *DB, name string, max int) *Cache[V] {
	c := &Cache[V]{caches: db.caches, name: name, max: max, m: map[string]V{}}
	db.caches.mu.Lock()
	db.caches.caches[name] = append(db.caches.caches[name], c)
	db.caches.mu.Unlock()
	return c
}

// Get returns the cached value of key when this process may trust its cache, else what
// load reads (kept for the next call unless an invalidation ran meanwhile). Errors are
// never cached.
func (c *Cache[V]) Get(ctx context.Context, key string, load func(context.Context) (V, error)) (V, error) {
	if _, inTx := TxFromContext(ctx); inTx {
		return load(ctx)
	}
	gen, ok := c.caches.trusted(ctx)
	if !ok {
		return load(ctx)
	}
	c.mu.RLock()
	v, hit := c.m[key]
	c.mu.RUnlock()
	if hit {
		return v, nil
	}
	v, err := load(ctx)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.caches.gen.Load() == gen {
		if len(c.m) >= c.max {
			clear(c.m)
		}
		c.m[key] = v
	}
	c.mu.Unlock()
	return v, nil
}

func (c *Cache[V]) drop(key string) {
	c.mu.Lock()
	delete(c.m, key)
	c.mu.Unlock()
}

func (c *Cache[V]) flush() {
	c.mu.Lock()
	clear(c.m)
	c.mu.Unlock()
}
