// Package livesessions is the in-memory twin of adapters/sql/livesessions: the session
// repository and the recording store on a memstore table and maps behind its lock. It
// keeps the same rules (ids unique, so of concurrent adds of one id exactly one lands;
// NotFound outside the workspace; a recording names a stored session, as the foreign key
// demands) and passes the same contract suite (adapters/contracttest). It does not take
// part in transactions and takes no row locks: tests of rollbacks and of two racing
// starts run on the databases.
package livesessions

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/memory/memstore"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// Store holds the data; Repository and Recordings are its ports.
type Store struct {
	sessions   *memstore.Table[*livesessions.Session]
	recordings map[string]livesessions.Recording // guarded by the sessions' lock
}

// New returns an empty store.
func New() *Store {
	scope := func(s *livesessions.Session) string { return s.WorkspaceID }
	return &Store{sessions: memstore.New("live session", scope, clone), recordings: map[string]livesessions.Recording{}}
}

// Repository implements livesessions.Repository.
type Repository struct{ *Store }

// Recordings implements livesessions.Recordings.
type Recordings struct{ *Store }

// Repository is the store's session repository.
func (s *Store) Repository() Repository { return Repository{s} }

// Recordings is the store's recording store.
func (s *Store) Recordings() Recordings { return Recordings{s} }

// clone copies the session so that callers never share memory with the store.
func clone(s *livesessions.Session) *livesessions.Session {
	out := *s
	out.StartedAt, out.EndedAt = platform.UTCPtr(s.StartedAt), platform.UTCPtr(s.EndedAt)
	out.CreatedAt, out.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
	return &out
}

// Add inserts a new session; an id that exists already is an error (the primary key).
func (r Repository) Add(_ context.Context, s *livesessions.Session) error {
	return r.sessions.Insert(s.ID, s)
}

// Get loads the session, or NotFound outside its workspace.
func (r Repository) Get(_ context.Context, workspaceID, id string) (*livesessions.Session, error) {
	return r.sessions.Get(workspaceID, id)
}

// Update saves the session's state (status and instants, as the SQL adapter does).
func (r Repository) Update(_ context.Context, s *livesessions.Session) error {
	r.sessions.Update(s.WorkspaceID, s.ID, func(stored *livesessions.Session) {
		stored.Status, stored.UpdatedAt = s.Status, s.UpdatedAt.UTC()
		stored.StartedAt, stored.EndedAt = platform.UTCPtr(s.StartedAt), platform.UTCPtr(s.EndedAt)
	})
	return nil
}

// Add inserts a recording of a stored session; an id that exists already is an error.
func (r Recordings) Add(_ context.Context, rec *livesessions.Recording) error {
	r.sessions.Lock()
	defer r.sessions.Unlock()
	if _, ok := r.sessions.Rows[rec.LiveSessionID]; !ok {
		return fmt.Errorf("insert recording: live session %s is not stored", rec.LiveSessionID) // the foreign key
	}
	if _, taken := r.recordings[rec.ID]; taken {
		return fmt.Errorf("insert recording: id %s exists", rec.ID)
	}
	stored := *rec
	stored.CreatedAt = rec.CreatedAt.UTC()
	r.recordings[rec.ID] = stored
	return nil
}
