package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// dayKeyTTL is how long a subject's row outlives its last claim: a day window and a
// margin for clock skew between instances. It is how old windows are cleaned up.
const dayKeyTTL = 25 * time.Hour

// Redis counts in Redis, so that instances sharing it share the quota exactly, by the
// blocks of Leased: a claim reads the subject's hash, decides in Go (ratelimit.Grant)
// and writes it back with a compare-and-set script, read again when another instance
// wrote it meanwhile (two round trips per claim); requests are admitted from the block
// in memory with no round trip.
type Redis struct {
	*Leased
	rows *redisRows
}

// redisRows keeps each subject's row as a hash, <prefix>rl:{<subject>}.
type redisRows struct {
	client *redis.Client
	prefix string
	swap   *redis.Script
}

// swapScript writes the row's six new values (ARGV 7-12, with the key's lifetime in
// ARGV 13) only if its fields still hold the values read (ARGV 1-6, "" for absent):
// Redis runs a script alone, so no other instance's claim falls in between.
const swapScript = `
local cur = redis.call('HMGET', KEYS[1], 'ms', 'mc', 'ml', 'ds', 'dc', 'dl')
for i = 1, 6 do
  if (cur[i] or '') ~= ARGV[i] then return 0 end
end
redis.call('HSET', KEYS[1], 'ms', ARGV[7], 'mc', ARGV[8], 'ml', ARGV[9], 'ds', ARGV[10], 'dc', ARGV[11], 'dl', ARGV[12])
redis.call('EXPIRE', KEYS[1], ARGV[13])
return 1
`

// NewRedis connects to url (redis://host:port/db); every key starts with prefix;
// lifetime <= 0 means DefaultLeaseLifetime.
func NewRedis(url, prefix string, lifetime time.Duration) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis url: %w", err)
	}
	boundWaits(opts)
	rows := &redisRows{client: redis.NewClient(opts), prefix: prefix, swap: redis.NewScript(swapScript)}
	return &Redis{Leased: newLeased(rows, lifetime), rows: rows}, nil
}

// Short waits, unless the URL sets them (dial_timeout=, read_timeout=, max_retries=...):
// a request must never wait long on a Redis that is away, since Resilient then counts in
// memory instead. go-redis's defaults (5 s dial, 3 s read, 3 retries, 5 dial attempts) would
// hold each request for seconds.
const (
	redisDialTimeout = 250 * time.Millisecond
	redisIOTimeout   = 250 * time.Millisecond
)

func boundWaits(opts *redis.Options) {
	if opts.DialTimeout == 0 {
		opts.DialTimeout = redisDialTimeout
	}
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = redisIOTimeout
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = redisIOTimeout
	}
	if opts.PoolTimeout == 0 {
		opts.PoolTimeout = redisIOTimeout
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = -1 // no retry: the fallback to memory is the retry
	}
	if opts.DialerRetries == 0 {
		opts.DialerRetries = 1
	}
}

// Ping checks the connection at start, so a wrong URL fails fast.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.rows.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}

// Close hands back the blocks this instance holds, then releases the connections.
func (r *Redis) Close(ctx context.Context) error {
	return errors.Join(r.Leased.Close(ctx), r.rows.client.Close())
}

// The hash's fields: each window's start, what was claimed in it, and how much of
// that is blocks instances hold.
var rowFields = []string{"ms", "mc", "ml", "ds", "dc", "dl"}

// update reads the row, lets change modify it, and swaps it in if no other instance
// wrote it meanwhile; else it reads again. The key carries the subject in a hash tag,
// for Redis Cluster.
func (r *redisRows) update(ctx context.Context, subject string, change func(row *counterRow)) error {
	key := r.prefix + "rl:{" + subject + "}"
	for {
		values, err := r.client.HMGet(ctx, key, rowFields...).Result()
		if err != nil {
			return fmt.Errorf("redis counter: %w", err)
		}
		before, read, err := parseRow(values)
		if err != nil {
			return err
		}
		row := before
		change(&row)
		if row == before {
			return nil
		}
		args := make([]any, 0, 13)
		for _, v := range read {
			args = append(args, v)
		}
		args = append(args, row.minuteStart, row.minuteCount, row.minuteLeased, row.dayStart, row.dayCount, row.dayLeased,
			int(dayKeyTTL.Seconds()))
		swapped, err := r.swap.Run(ctx, r.client, []string{key}, args...).Int()
		if err != nil {
			return fmt.Errorf("redis counter: %w", err)
		}
		if swapped == 1 {
			return nil
		}
	}
}

// parseRow reads HMGET's answer, and the fields as read (absent ones, a new subject's,
// are zero and "").
func parseRow(values []any) (counterRow, [6]string, error) {
	var n [6]int64
	var read [6]string
	for i, v := range values {
		s, ok := v.(string)
		if !ok {
			continue
		}
		x, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return counterRow{}, read, fmt.Errorf("redis counter field %s: %w", rowFields[i], err)
		}
		n[i], read[i] = x, s
	}
	return counterRow{minuteStart: n[0], minuteCount: int(n[1]), minuteLeased: int(n[2]),
		dayStart: n[3], dayCount: int(n[4]), dayLeased: int(n[5])}, read, nil
}

func (r *redisRows) settle(ctx context.Context, subject string, b block) error {
	if err := r.update(ctx, subject, func(row *counterRow) { row.settle(b) }); err != nil {
		return fmt.Errorf("hand back requests: %w", err)
	}
	return nil
}

// deleteOld has nothing to do: rows expire a day after their last claim.
func (r *redisRows) deleteOld(context.Context, int64) (int, error) { return 0, nil }
