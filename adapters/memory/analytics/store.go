// Package analytics is the in-memory twin of adapters/sql/analytics: the projection's
// write port and the summary's read ports, on maps behind one mutex. It keeps the same
// rules (every add adds to its workspace's UTC day, concurrently too; an enrollment's
// state and a workspace's progress are overwritten; Reset empties every workspace; reads
// see one workspace, revenue by currency then day) and passes the same contract suites
// (adapters/contracttest). It does not take part in transactions: the consumer's
// savepoint or batch rollback does not undo its writes (docs/architecture.md).
package analytics

import (
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/analytics/command"
)

// Store holds the read model; Projection and Summary are its ports.
type Store struct {
	mu          sync.RWMutex
	revenue     map[revenueKey]command.Revenue
	activity    map[dayKey]command.Activity
	enrollments map[enrollmentKey]command.EnrollmentState // RevokedDay copied, never shared
	progress    map[string]time.Time                      // the last event's time per workspace
}

type dayKey struct {
	workspaceID string
	day         command.Day
}

type revenueKey struct {
	dayKey
	currency string
}

type enrollmentKey struct{ workspaceID, enrollmentID string }

// New returns an empty store.
func New() *Store {
	s := &Store{}
	s.reset()
	return s
}

// reset empties every map; the caller holds the lock (or owns the store).
func (s *Store) reset() {
	s.revenue = map[revenueKey]command.Revenue{}
	s.activity = map[dayKey]command.Activity{}
	s.enrollments = map[enrollmentKey]command.EnrollmentState{}
	s.progress = map[string]time.Time{}
}

// Projection implements command.Projection and command.Resetter.
type Projection struct{ *Store }

// Summary implements query.ReadModel and query.DailyReadModel.
type Summary struct{ *Store }

// Projection is the store's write port.
func (s *Store) Projection() Projection { return Projection{s} }

// Summary is the store's read port.
func (s *Store) Summary() Summary { return Summary{s} }
