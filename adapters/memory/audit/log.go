// Package audit is the in-memory twin of adapters/sql/audit: the audit log on a slice
// behind one mutex, passing the same contract suite (adapters/contracttest).
package audit

import (
	"context"
	"sort"
	"sync"

	appaudit "github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/platform"
)

// IDPrefix prefixes entry ids (aud_...), as on the databases.
const IDPrefix = "aud"

// Log records entries and pages them newest first.
type Log struct {
	ids     platform.IDs
	clock   platform.Clock
	mu      sync.Mutex
	entries []appaudit.Entry
}

// New returns an empty log.
func New(ids platform.IDs, clock platform.Clock) *Log { return &Log{ids: ids, clock: clock} }

// Record stores e with the actor of ctx and the clock's time.
func (l *Log) Record(ctx context.Context, e platform.AuditEntry) error {
	a := platform.ActorFrom(ctx)
	entry := appaudit.Entry{ID: l.ids.New(IDPrefix), WorkspaceID: e.WorkspaceID, Actor: a.Who(), Address: a.Address,
		Action: e.Action, Target: e.Target, Detail: e.Detail, CreatedAt: l.clock.Now().UTC()}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, entry)
	return nil
}

// Page returns one keyset page of a workspace's entries by (createdAt, id) descending.
func (l *Log) Page(_ context.Context, workspaceID string, req platform.PageRequest) (platform.Page[appaudit.Entry], error) {
	l.mu.Lock()
	mine := []appaudit.Entry{}
	for _, e := range l.entries {
		if e.WorkspaceID == workspaceID && (req.After == nil || before(e, *req.After)) {
			mine = append(mine, e)
		}
	}
	l.mu.Unlock()
	sort.Slice(mine, func(i, j int) bool { return before(mine[j], position(mine[i])) }) // newest first
	out := platform.Page[appaudit.Entry]{Items: mine}
	if len(mine) > req.Limit {
		out.Items, out.HasMore = mine[:req.Limit], true
		last := position(out.Items[req.Limit-1])
		out.Next = &last
	}
	return out, nil
}

func position(e appaudit.Entry) platform.Position {
	return platform.Position{CreatedAt: e.CreatedAt, ID: e.ID}
}

// before tells whether e comes after p in the log's order (older, or as old with a smaller id).
func before(e appaudit.Entry, p platform.Position) bool {
	return e.CreatedAt.Before(p.CreatedAt) || (e.CreatedAt.Equal(p.CreatedAt) && e.ID < p.ID)
}
