package query

import (
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// UsageRecorder remembers when keys were last used, without a database write per request.
type UsageRecorder interface {
	RecordUse(keyID string, at time.Time)
	// LastUsed returns a use not yet flushed to storage, if any.
	LastUsed(keyID string) (time.Time, bool)
}

// Views shows keys to their owner as of now: the rotation advice, and the last use
// merged from storage and the uses not yet flushed.
type Views struct {
	usage UsageRecorder
	clock platform.Clock
}

// NewViews builds the key views over the usage recorder and the clock.
func NewViews(usage UsageRecorder, clock platform.Clock) Views {
	return Views{usage: usage, clock: clock}
}

// Of shows k.
func (v Views) Of(k *keys.Key) Key {
	out := View(k)
	out.RotationDue = k.RotationDue(v.clock.Now())
	if at, ok := v.usage.LastUsed(k.ID); ok && (out.LastUsedAt == nil || at.After(*out.LastUsedAt)) {
		out.LastUsedAt = &at
	}
	return out
}

// All shows list.
func (v Views) All(list []*keys.Key) []Key {
	out := make([]Key, len(list))
	for i, k := range list {
		out[i] = v.Of(k)
	}
	return out
}
