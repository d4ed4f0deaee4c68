package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// takeScript checks both windows and counts in both, or in neither, atomically: Redis runs
// a script alone. Keys carry the window's start, so a new window is a new key; each key
// expires after its window, which is how old windows are cleaned up.
const takeScript = `
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
if m >= tonumber(ARGV[1]) or d >= tonumber(ARGV[2]) then
  return {m, d, 0}
end
m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
return {m, d, 1}
`

// Key lifetimes: a window's length and a margin for clock skew between instances.
const (
	minuteKeyTTL = 2 * time.Minute
	dayKeyTTL    = 25 * time.Hour
)

// Redis counts in Redis, so that instances sharing it share the quota exactly, without a
// row lock in the database: one script call per request, no contention between requests.
type Redis struct {
	client *redis.Client
	prefix string
	take   *redis.Script
}

// NewRedis connects to url (redis://host:port/db); every key starts with prefix.
func NewRedis(url, prefix string) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis url: %w", err)
	}
	boundWaits(opts)
	return &Redis{client: redis.NewClient(opts), prefix: prefix, take: redis.NewScript(takeScript)}, nil
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
	if err := r.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}

// Close releases the connections.
func (r *Redis) Close() error { return r.client.Close() }

// Take runs the script. Both keys share a hash tag, so they live on one Redis Cluster slot.
func (r *Redis) Take(ctx context.Context, subject string, w ratelimit.Windows, q ratelimit.Quota) (ratelimit.Usage, bool, error) {
	base := r.prefix + "rl:{" + subject + "}:"
	keys := []string{base + "m:" + strconv.FormatInt(w.Minute.Unix(), 10), base + "d:" + strconv.FormatInt(w.Day.Unix(), 10)}
	res, err := r.take.Run(ctx, r.client, keys, q.PerMinute, q.PerDay, int(minuteKeyTTL.Seconds()), int(dayKeyTTL.Seconds())).Int64Slice()
	if err != nil {
		return ratelimit.Usage{}, false, fmt.Errorf("count request in redis: %w", err)
	}
	if len(res) != 3 {
		return ratelimit.Usage{}, false, fmt.Errorf("count request in redis: unexpected reply %v", res)
	}
	return ratelimit.Usage{Minute: int(res[0]), Day: int(res[1])}, res[2] == 1, nil
}

// Sweep has nothing to do: keys expire with their windows.
func (r *Redis) Sweep(context.Context, time.Time) (int, error) { return 0, nil }
