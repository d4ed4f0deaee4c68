package feed

import (
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/application/events"
)

// Signals wakes the feed's waiting readers with the outbox's commit signals: a commit
// of this instance after it, one of another instance through PostgreSQL's LISTEN
// (wakeup.Listener). A signal names the partition keys committed, so a reader wakes
// only for its workspace's key (and the rare workspace that shares its hash).
type Signals struct{ Wake *wakeup.Wakeup }

// Subscribe returns the signals of workspaceID's commits.
func (s Signals) Subscribe(workspaceID string) (<-chan struct{}, func()) {
	key := events.PartitionKey(workspaceID)
	return s.Wake.Subscribe(func(k uint32) bool { return k == key })
}
