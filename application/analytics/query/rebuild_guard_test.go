package query

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

type outboxStart struct {
	at time.Time
	ok bool
}

func (o outboxStart) FirstEventAt(context.Context) (time.Time, bool, error) { return o.at, o.ok, nil }

func earliest(at time.Time, ok bool) platform.Handler[struct{}, platform.Earliest] {
	return platform.HandlerFunc[struct{}, platform.Earliest](func(context.Context, struct{}) (platform.Earliest, error) {
		return platform.Earliest{At: at, OK: ok}, nil
	})
}

// The guard refuses a rebuild when a module holds a fact older than the oldest event
// left in the outbox (beyond the slack), and lets it run otherwise.
func TestCheckRebuildRefusesWhenTheOutboxLostCountedFacts(t *testing.T) {
	first := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for name, c := range map[string]struct {
		outbox  outboxStart
		sources []platform.Handler[struct{}, platform.Earliest]
		refused bool
	}{
		"no facts anywhere":            {outboxStart{}, nil, false},
		"facts but an empty outbox":    {outboxStart{}, []platform.Handler[struct{}, platform.Earliest]{earliest(first, true)}, true},
		"facts within the slack":       {outboxStart{first, true}, []platform.Handler[struct{}, platform.Earliest]{earliest(first.Add(-RebuildSlack), true)}, false},
		"one module's fact is too old": {outboxStart{first, true}, []platform.Handler[struct{}, platform.Earliest]{earliest(first, true), earliest(first.Add(-time.Hour), true)}, true},
		"a module without facts":       {outboxStart{first, true}, []platform.Handler[struct{}, platform.Earliest]{earliest(time.Time{}, false), earliest(first, true)}, false},
	} {
		_, err := Reads{Guard: RebuildGuard{Outbox: c.outbox, Sources: c.sources}}.CheckRebuild(context.Background(), CheckRebuild{})
		if c.refused != (err != nil) {
			t.Errorf("%s: %v, want refused=%v", name, err, c.refused)
		}
		if err != nil && !strings.Contains(err.Error(), "no longer holds") {
			t.Errorf("%s: %v does not say why", name, err)
		}
	}
}
