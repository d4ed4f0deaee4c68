// Package courses is the in-memory twin of adapters/sql/courses: the course repository,
// the read model and the published catalogue on a memstore table and maps behind its
// lock. It keeps the same rules (slug unique per workspace, NotFound outside the
// workspace, curriculum appended by id, the catalogue version moved by every write) and
// passes the same contract suite (adapters/contracttest). It does not take part in
// transactions: a rolled-back command leaves its writes here, so tests of rollbacks and
// row locks run on the databases.
package courses

import (
	"context"
	"slices"
	"sort"

	"github.com/creatorapi/creatorapi/adapters/memory/memstore"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Store holds the data; Repository, Reads and Catalog are its three ports.
type Store struct {
	courses  *memstore.Table[*courses.Course]
	versions map[string]int64 // by workspace; guarded by the courses' lock
}

// New returns an empty store.
func New() *Store {
	scope := func(c *courses.Course) string { return c.WorkspaceID }
	return &Store{courses: memstore.New("course", scope, clone), versions: map[string]int64{}}
}

// Repository implements courses.Repository.
type Repository struct{ *Store }

// Reads implements query.ReadModel.
type Reads struct{ *Store }

// Catalog implements query.Catalog, the module's published read port.
type Catalog struct{ *Store }

// Repository is the store's aggregate repository.
func (s *Store) Repository() Repository { return Repository{s} }

// Reads is the store's read model.
func (s *Store) Reads() Reads { return Reads{s} }

// Catalog is the store's published catalogue.
func (s *Store) Catalog() Catalog { return Catalog{s} }

// clone copies the aggregate so that callers never share memory with the store.
func clone(c *courses.Course) *courses.Course {
	out := *c
	out.PublishedAt = platform.UTCPtr(c.PublishedAt)
	out.ArchivedAt = platform.UTCPtr(c.ArchivedAt)
	out.CreatedAt, out.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	out.Modules = make([]courses.Module, len(c.Modules))
	for i, m := range c.Modules {
		m.CreatedAt = m.CreatedAt.UTC()
		m.Lessons = append([]courses.Lesson(nil), m.Lessons...)
		for j := range m.Lessons {
			m.Lessons[j].CreatedAt = m.Lessons[j].CreatedAt.UTC()
		}
		out.Modules[i] = m
	}
	if len(out.Modules) == 0 {
		out.Modules = nil
	}
	return &out
}

// holding returns the workspace's course with a module match accepts; the caller holds
// the lock.
func (s *Store) holding(workspaceID string, match func(courses.Module) bool) (*courses.Course, bool) {
	for _, c := range s.courses.Rows {
		if c.WorkspaceID == workspaceID && slices.ContainsFunc(c.Modules, match) {
			return c, true
		}
	}
	return nil, false
}

func (s *Store) slugTaken(workspaceID, slug string) bool {
	for _, c := range s.courses.Rows {
		if c.WorkspaceID == workspaceID && c.Slug == slug {
			return true
		}
	}
	return false
}

// Add inserts a new course; a slug taken in the workspace is refused as on the databases.
func (s Repository) Add(_ context.Context, c *courses.Course) error {
	s.courses.Lock()
	defer s.courses.Unlock()
	if _, exists := s.courses.Rows[c.ID]; exists || s.slugTaken(c.WorkspaceID, c.Slug) {
		return kernel.Invalid("slug", "slug %q is already used by another course", c.Slug)
	}
	stored := clone(c)
	stored.Modules = nil // a new course has no curriculum; Update appends it
	s.courses.Rows[c.ID] = stored
	s.versions[c.WorkspaceID]++
	return nil
}

// SlugTaken tells whether a course of the workspace uses slug.
func (s Repository) SlugTaken(_ context.Context, workspaceID, slug string) (bool, error) {
	s.courses.RLock()
	defer s.courses.RUnlock()
	return s.slugTaken(workspaceID, slug), nil
}

// Get returns a copy of the aggregate, or NotFound outside the workspace.
func (s Repository) Get(_ context.Context, workspaceID, id string) (*courses.Course, error) {
	return s.courses.Get(workspaceID, id)
}

// GetByModule returns a copy of the aggregate holding moduleID, or NotFound.
func (s Repository) GetByModule(_ context.Context, workspaceID, moduleID string) (*courses.Course, error) {
	s.courses.RLock()
	defer s.courses.RUnlock()
	if c, ok := s.holding(workspaceID, func(m courses.Module) bool { return m.ID == moduleID }); ok {
		return clone(c), nil
	}
	return nil, kernel.NotFound("module %s not found", moduleID)
}

// Update saves the course's state and appends the modules and lessons not stored yet;
// the slug and stored curriculum never change, as on the databases.
func (s Repository) Update(_ context.Context, c *courses.Course) error {
	s.courses.Lock()
	defer s.courses.Unlock()
	stored, ok := s.courses.Find(c.WorkspaceID, c.ID)
	if !ok {
		return kernel.NotFound("course %s not found", c.ID)
	}
	next := clone(c)
	next.Slug, next.CreatedAt = stored.Slug, stored.CreatedAt
	next.Modules = mergeCurriculum(stored.Modules, next.Modules)
	s.courses.Rows[c.ID] = next
	s.versions[c.WorkspaceID]++
	return nil
}

// mergeCurriculum keeps what is stored and appends what is new, by id.
func mergeCurriculum(stored, given []courses.Module) []courses.Module {
	out := append([]courses.Module(nil), stored...)
	index := map[string]int{}
	lessons := map[string]bool{}
	for i, m := range out {
		index[m.ID] = i
		out[i].Lessons = append([]courses.Lesson(nil), m.Lessons...)
		for _, l := range m.Lessons {
			lessons[l.ID] = true
		}
	}
	for _, m := range given {
		i, ok := index[m.ID]
		if !ok {
			out = append(out, courses.Module{ID: m.ID, Title: m.Title, Position: m.Position, CreatedAt: m.CreatedAt})
			i = len(out) - 1
			index[m.ID] = i
		}
		for _, l := range m.Lessons {
			if !lessons[l.ID] {
				out[i].Lessons = append(out[i].Lessons, l)
				lessons[l.ID] = true
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Position < out[b].Position })
	for i := range out {
		ls := out[i].Lessons
		sort.SliceStable(ls, func(a, b int) bool { return ls[a].Position < ls[b].Position })
	}
	return out
}

// The three ports, checked at compile time.
var (
	_ courses.Repository = Repository{}
	_ query.ReadModel    = Reads{}
	_ query.Catalog      = Catalog{}
)
