// Package audit is the in-memory twin of adapters/sql/audit: the audit log on a slice
// behind one mutex, passing the same contract suite (adapters/contracttest).
package audit

import (
	"context"
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
	var mine []appaudit.Entry
	for _, e := range l.entries {
		if e.WorkspaceID == workspaceID {
			mine = append(mine, e)
		}
	}
	l.mu.Unlock()
	return platform.SeekPage(mine, req, position), nil
}

func position(e appaudit.Entry) platform.Position {
	return platform.Position{CreatedAt: e.CreatedAt, ID: e.ID}
}
