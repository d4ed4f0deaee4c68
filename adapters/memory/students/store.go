// Package students is the in-memory twin of adapters/sql/students: the student
// repository, the read model and the published queries on a memstore table behind its
// lock. It keeps the same rules (a live student's address is unique per workspace,
// case-insensitively, so concurrent creates of one address add one; a deleted student
// frees its address and no longer resolves; Touch never moves updatedAt back; NotFound
// outside the workspace) and passes the same contract suite (adapters/contracttest). It
// does not take part in transactions and takes no row locks: tests of rollbacks and of
// Get's lock run on the databases.
package students

import (
	"context"
	"maps"
	"time"

	"github.com/creatorapi/creatorapi/adapters/memory/memstore"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// Store holds the data; Repository and Reads are its ports.
type Store struct {
	students *memstore.Table[*students.Student]
}

// New returns an empty store.
func New() *Store {
	return &Store{students: memstore.New("student", func(st *students.Student) string { return st.WorkspaceID }, clone)}
}

// Repository implements students.Repository.
type Repository struct{ *Store }

// Reads implements query.ReadModel and query.Published.
type Reads struct{ *Store }

// Repository is the store's aggregate repository.
func (s *Store) Repository() Repository { return Repository{s} }

// Reads is the store's read model and published queries.
func (s *Store) Reads() Reads { return Reads{s} }

// clone copies the aggregate so that callers never share memory with the store.
func clone(s *students.Student) *students.Student {
	out := *s
	out.Metadata = maps.Clone(s.Metadata)
	if out.Metadata == nil {
		out.Metadata = map[string]string{}
	}
	out.CreatedAt, out.UpdatedAt, out.DeletedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC(), platform.UTCPtr(s.DeletedAt)
	return &out
}

// live returns the workspace's live student with this id; the caller holds the lock.
func (s *Store) live(workspaceID, id string) (*students.Student, bool) {
	st, ok := s.students.Find(workspaceID, id)
	return st, ok && st.DeletedAt == nil
}

// holder returns the live student of the workspace using the address, if any; the
// caller holds the lock.
func (s *Store) holder(workspaceID, email string) (*students.Student, bool) {
	key := students.EmailKey(email)
	for _, st := range s.students.Rows {
		if st.WorkspaceID == workspaceID && st.DeletedAt == nil && students.EmailKey(st.Email) == key {
			return st, true
		}
	}
	return nil, false
}

// Add inserts st unless a live student of the workspace has its address; added tells which.
func (r Repository) Add(_ context.Context, st *students.Student) (bool, error) {
	r.students.Lock()
	defer r.students.Unlock()
	if _, taken := r.holder(st.WorkspaceID, st.Email); taken && st.DeletedAt == nil {
		return false, nil
	}
	// The SQL insert's ON CONFLICT DO NOTHING covers the id too.
	return r.students.InsertLocked(st.ID, st) == nil, nil
}

// Get loads a live student, or NotFound.
func (r Repository) Get(_ context.Context, workspaceID, id string) (*students.Student, error) {
	r.students.RLock()
	defer r.students.RUnlock()
	st, ok := r.live(workspaceID, id)
	if !ok {
		return nil, kernel.NotFound("student %s not found", id)
	}
	return clone(st), nil
}

// Update saves st; an address another live student of the workspace uses is 422 email.
func (r Repository) Update(_ context.Context, st *students.Student) error {
	r.students.Lock()
	defer r.students.Unlock()
	if _, ok := r.students.Find(st.WorkspaceID, st.ID); !ok {
		return nil // the SQL UPDATE affects no row and reports nothing
	}
	if other, taken := r.holder(st.WorkspaceID, st.Email); taken && other.ID != st.ID && st.DeletedAt == nil {
		return kernel.Invalid("email", "email %s is already used by another student of this workspace", st.Email)
	}
	r.students.Rows[st.ID] = clone(st)
	return nil
}

// Touch moves the student's updatedAt forward to at, never back (deleted students too).
func (r Repository) Touch(_ context.Context, workspaceID, id string, at time.Time) error {
	r.students.Update(workspaceID, id, func(st *students.Student) {
		if st.UpdatedAt.Before(at) {
			st.UpdatedAt = at.UTC()
		}
	})
	return nil
}

// List returns one keyset page of live students, newest first (as on the databases).
func (r Reads) List(_ context.Context, workspaceID string, f query.Filter, page platform.PageRequest) (platform.Page[*students.Student], error) {
	return r.students.Page(func(st *students.Student) bool {
		return st.WorkspaceID == workspaceID && st.DeletedAt == nil &&
			(f.Email == "" || students.EmailKey(st.Email) == students.EmailKey(f.Email)) &&
			(f.UpdatedSince == nil || !st.UpdatedAt.Before(*f.UpdatedSince))
	}, page, position), nil
}

func position(st *students.Student) platform.Position {
	return platform.Position{CreatedAt: st.CreatedAt, ID: st.ID}
}

// Get returns a live student or NotFound.
func (r Reads) Get(ctx context.Context, workspaceID, id string) (*students.Student, error) {
	return Repository(r).Get(ctx, workspaceID, id)
}

// GetByEmail returns the live student with this address (case-insensitively) or NotFound.
func (r Reads) GetByEmail(_ context.Context, workspaceID, email string) (*students.Student, error) {
	r.students.RLock()
	defer r.students.RUnlock()
	st, ok := r.holder(workspaceID, email)
	if !ok {
		return nil, kernel.NotFound("student with this email not found")
	}
	return clone(st), nil
}

// Exists tells whether a live student of the workspace has this id.
func (r Reads) Exists(_ context.Context, workspaceID, id string) (bool, error) {
	r.students.RLock()
	defer r.students.RUnlock()
	_, ok := r.live(workspaceID, id)
	return ok, nil
}

// FirstCreated returns the earliest creation of a student, deleted ones included.
func (r Reads) FirstCreated(context.Context) (time.Time, bool, error) {
	return r.students.Earliest(func(st *students.Student, consider func(time.Time)) { consider(st.CreatedAt) })
}

// The ports, checked at compile time.
var (
	_ students.Repository = Repository{}
	_ query.ReadModel     = Reads{}
	_ query.Published     = Reads{}
)
