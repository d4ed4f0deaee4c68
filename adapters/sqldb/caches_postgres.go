package sqldb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/creatorapi/creatorapi/adapters/background"
)

// CacheChannel is the PostgreSQL channel of cache invalidations and of each instance's pings.
const CacheChannel = "creatorapi_caches"

const (
	pingEvery      = 250 * time.Millisecond
	heartbeatEvery = time.Second
	// heartbeatTrust: an instance trusts its cache only while its last heartbeat, written
	// before the ping that confirmed its channel, is younger than this; liveWindow, what an
	// invalidation calls live, is longer, so an instance that trusts is always waited for.
	heartbeatTrust = 5 * time.Second
	liveWindow     = "10 seconds"
	// silentLimit: a channel that brought none of our own pings back for this long is
	// reconnected (a partition that closes nothing would otherwise stall it for good).
	silentLimit = 3 * time.Second
)

const (
	heartbeatSQL = `INSERT INTO cache_instances (instance, seen_at) VALUES ($1, now())
		ON CONFLICT (instance) DO UPDATE SET seen_at = excluded.seen_at`
	sweepInstancesSQL = `DELETE FROM cache_instances WHERE seen_at < now() - interval '1 minute'`
	sweepAcksSQL      = `DELETE FROM cache_acks WHERE acked_at < now() - interval '1 minute'`
	leaveSQL          = `DELETE FROM cache_instances WHERE instance = $1`
	ackSQL            = `INSERT INTO cache_acks (token, instance, acked_at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING`
	notifySQL         = `SELECT pg_notify($1, $2)`
	// The live instances that have not acknowledged token yet.
	unackedSQL = `SELECT count(*) FROM cache_instances i WHERE i.seen_at >= now() - interval '` + liveWindow + `'
		AND NOT EXISTS (SELECT 1 FROM cache_acks a WHERE a.token = $1 AND a.instance = i.instance)`
	forgetAcksSQL = `DELETE FROM cache_acks WHERE token = $1`
)

// notify sends the invalidation in the transaction of ctx and waits, once committed, for
// every live instance to acknowledge it (this one included, through its own listener).
func (c *Caches) notify(ctx context.Context, name, key string) error {
	token := randomName()
	if _, err := c.db.Write(ctx).ExecContext(ctx, notifySQL, CacheChannel, "i|"+token+"|"+name+"|"+key); err != nil {
		return fmt.Errorf("invalidate %s: %w", name, err)
	}
	settle := func() {
		c.apply(name, key) // this instance at once, whatever its listener's state
		c.await(token)
	}
	if AfterCommit(ctx, settle) {
		return nil
	}
	if _, inTx := TxFromContext(ctx); !inTx { // autocommitted: sent already
		settle()
	}
	return nil
}

// await polls until no live instance misses token's acknowledgement, for at most AckWait
// after the commit: by then an instance that did not hear it has stopped trusting its cache.
func (c *Caches) await(token string) {
	ctx, cancel := context.WithTimeout(context.Background(), AckWait)
	defer cancel()
	defer func() {
		fctx, fcancel := context.WithTimeout(context.Background(), time.Second)
		defer fcancel()
		_, _ = c.db.Writer.ExecContext(fctx, forgetAcksSQL, token)
	}()
	for wait := time.Millisecond; ; wait = min(2*wait, 10*time.Millisecond) {
		var missing int
		if err := c.db.Writer.GetContext(ctx, &missing, unackedSQL, token); err == nil && missing == 0 {
			return
		}
		select {
		case <-ctx.Done():
			c.ackTimeout.Add(1)
			return
		case <-time.After(wait):
		}
	}
}

// CacheListener is the background worker of an instance that serves from its caches on
// PostgreSQL: it LISTENs on CacheChannel on a connection of its own, drops what others
// invalidate and acknowledges it, writes the instance's heartbeat, and pings itself to
// confirm the channel. Until it runs, the caches are not trusted (every read goes to the
// database).
type CacheListener struct {
	c        *Caches
	url      string
	instance string
	worker   background.Session[*pgx.Conn]

	mu      sync.Mutex
	session int
	pending map[int]ping // this session's pings not heard back yet
	heard   time.Time    // when one of our pings last came back
}

type ping struct {
	session         int
	sent, heartbeat time.Time
}

// CacheWorker is what keeps a serving process's caches trusted (a background worker).
type CacheWorker interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
}

// Listener returns the worker that keeps this process's caches trusted: on PostgreSQL the
// CacheListener (url is the PostgreSQL URL it listens through, "" for the database's own),
// on SQLite the data_version watch.
func (c *Caches) Listener(url string) CacheWorker {
	if c.db.Dialect != Postgres {
		return &sqliteWatch{c: c}
	}
	if url == "" {
		url = c.db.dsn
	}
	return &CacheListener{c: c, url: url, instance: randomName()}
}

// Start connects once (failing fast on a bad URL), then listens in the background,
// reconnecting whenever a session ends (distrusting the caches until it is back).
func (l *CacheListener) Start(ctx context.Context) error {
	if l.url == "" {
		return errors.New("cache listener: no PostgreSQL URL to listen through")
	}
	l.worker = background.Session[*pgx.Conn]{
		Connect: l.connect,
		Serve:   l.serve,
		Close: func(conn *pgx.Conn) {
			l.c.distrust() // what was sent while away is lost
			cctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_ = conn.Close(cctx)
		},
		MaxBackoff: 5 * time.Second,
	}
	return l.worker.Start(ctx)
}

// Stop ends the listener, distrusts the caches and forgets this instance's row, so that
// invalidations stop waiting for it.
func (l *CacheListener) Stop(ctx context.Context) error {
	if l.worker.Connect == nil {
		return nil
	}
	if err := l.worker.Stop(ctx); err != nil {
		return err
	}
	l.c.distrust()
	_, err := l.c.db.Writer.ExecContext(ctx, leaveSQL, l.instance)
	return err
}

func (l *CacheListener) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := postgresConfig(l.url)
	if err != nil {
		return nil, fmt.Errorf("cache listener: %w", err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("cache listener: connect: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+CacheChannel); err != nil {
		_ = conn.Close(ctx)
		return nil, fmt.Errorf("cache listener: listen: %w", err)
	}
	return conn, nil
}

// serve runs one session: pings in the background, notifications here, until the
// connection fails, stays silent too long, or ctx ends.
func (l *CacheListener) serve(ctx context.Context, conn *pgx.Conn) error {
	l.mu.Lock()
	l.session++
	session := l.session
	l.pending, l.heard = map[int]ping{}, time.Now()
	l.mu.Unlock()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go l.pinger(sctx, session)
	for sctx.Err() == nil {
		wctx, cancel := context.WithTimeout(sctx, 500*time.Millisecond)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if n != nil {
			l.handle(sctx, session, n.Payload)
		}
		if err != nil {
			if conn.IsClosed() || ctx.Err() != nil {
				return err
			}
			l.mu.Lock()
			silent := time.Since(l.heard) > silentLimit
			l.mu.Unlock()
			if silent {
				return errors.New("cache listener: none of our pings came back")
			}
		}
	}
	return ctx.Err()
}

// handle applies one notification: an invalidation (dropped, then acknowledged) or a
// ping of ours (the channel is confirmed as of its sending).
func (l *CacheListener) handle(ctx context.Context, session int, payload string) {
	kind, rest, _ := strings.Cut(payload, "|")
	switch kind {
	case "i":
		token, entry, _ := strings.Cut(rest, "|")
		name, key, _ := strings.Cut(entry, "|")
		l.c.apply(name, key)
		actx, cancel := context.WithTimeout(ctx, time.Second)
		_, _ = l.c.db.Writer.ExecContext(actx, ackSQL, token, l.instance)
		cancel()
	case "p":
		from, seq, _ := strings.Cut(rest, "|")
		if from != l.instance {
			return
		}
		s, n, _ := strings.Cut(seq, "|")
		ps, _ := strconv.Atoi(s)
		pn, _ := strconv.Atoi(n)
		l.mu.Lock()
		p, ok := l.pending[pn]
		ok = ok && ps == session && p.session == session
		if ok {
			for k := range l.pending {
				if k <= pn {
					delete(l.pending, k)
				}
			}
			l.heard = time.Now()
		}
		l.mu.Unlock()
		if ok && !p.heartbeat.IsZero() {
			// Everything committed before the ping was sent has been heard.
			l.c.trustUntilAt(minTime(p.sent.Add(Trust), p.heartbeat.Add(heartbeatTrust)))
		}
	}
}

// pinger writes the heartbeat (every second) and sends a ping (every 250 ms) through the pool.
func (l *CacheListener) pinger(ctx context.Context, session int) {
	var heartbeat time.Time // start of the last heartbeat that succeeded
	beats := 0
	for n := 1; ; n++ {
		if time.Since(heartbeat) >= heartbeatEvery {
			start := time.Now()
			hctx, cancel := context.WithTimeout(ctx, time.Second)
			if _, err := l.c.db.Writer.ExecContext(hctx, heartbeatSQL, l.instance); err == nil {
				heartbeat = start
				if beats++; beats%30 == 1 {
					_, _ = l.c.db.Writer.ExecContext(hctx, sweepInstancesSQL)
					_, _ = l.c.db.Writer.ExecContext(hctx, sweepAcksSQL)
				}
			}
			cancel()
		}
		l.mu.Lock()
		l.pending[n] = ping{session: session, sent: time.Now(), heartbeat: heartbeat}
		for k, p := range l.pending {
			if time.Since(p.sent) > silentLimit {
				delete(l.pending, k)
			}
		}
		sent := l.pending[n].sent
		l.mu.Unlock()
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		payload := "p|" + l.instance + "|" + strconv.Itoa(session) + "|" + strconv.Itoa(n)
		_, _ = l.c.db.Writer.ExecContext(pctx, notifySQL, CacheChannel, payload)
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(sent.Add(pingEvery))):
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func randomName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
