// Package enrollments is the in-memory twin of adapters/sql/enrollments: the enrollment
// repository, the progress repository, the read model and the published queries on a
// memstore table and maps behind its lock. It keeps the same rules (one enrollment per
// workspace, student and course, so concurrent identical grants add one; one completion
// per enrollment and lesson; NotFound outside the workspace) and passes the same contract suite
// (adapters/contracttest). It does not take part in transactions and takes no row
// locks: tests of rollbacks and of Get's lock run on the databases.
package enrollments

import (
	"context"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/adapters/memory/memstore"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// pair is the unique key of an enrollment.
type pair struct{ workspaceID, studentID, courseID string }

// Store holds the data; Repository, Progress and Reads are its ports.
type Store struct {
	enrollments *memstore.Table[*enrollments.Enrollment]
	// Guarded by the enrollments' lock:
	byPair      map[pair]string                                    // enrollment id
	completions map[string]map[string]enrollments.LessonCompletion // by enrollment id, then lesson id
}

// New returns an empty store.
func New() *Store {
	return &Store{
		enrollments: memstore.New("enrollment", func(e *enrollments.Enrollment) string { return e.WorkspaceID }, clone),
		byPair:      map[pair]string{},
		completions: map[string]map[string]enrollments.LessonCompletion{},
	}
}

// Repository implements enrollments.Repository.
type Repository struct{ *Store }

// Progress implements enrollments.ProgressRepository.
type Progress struct{ *Store }

// Reads implements query.ReadModel and query.Published.
type Reads struct{ *Store }

// Repository is the store's enrollment repository.
func (s *Store) Repository() Repository { return Repository{s} }

// Progress is the store's lesson progress repository.
func (s *Store) Progress() Progress { return Progress{s} }

// Reads is the store's read model and published queries.
func (s *Store) Reads() Reads { return Reads{s} }

// clone copies the aggregate so that callers never share memory with the store.
func clone(e *enrollments.Enrollment) *enrollments.Enrollment {
	out := *e
	out.CreatedAt, out.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	out.RevokedAt, out.CompletedAt = platform.UTCPtr(e.RevokedAt), platform.UTCPtr(e.CompletedAt)
	return &out
}

// Add inserts e unless the pair is enrolled already; added tells which.
func (r Repository) Add(_ context.Context, e *enrollments.Enrollment) (bool, error) {
	r.enrollments.Lock()
	defer r.enrollments.Unlock()
	key := pair{e.WorkspaceID, e.StudentID, e.CourseID}
	if _, taken := r.byPair[key]; taken {
		return false, nil
	}
	if err := r.enrollments.InsertLocked(e.ID, e); err != nil {
		return false, err
	}
	r.byPair[key] = e.ID
	return true, nil
}

// Get loads the enrollment, or NotFound.
func (r Repository) Get(_ context.Context, workspaceID, id string) (*enrollments.Enrollment, error) {
	return r.enrollments.Get(workspaceID, id)
}

// GetByPair loads the enrollment of student in course, or NotFound.
func (r Repository) GetByPair(_ context.Context, workspaceID, studentID, courseID string) (*enrollments.Enrollment, error) {
	r.enrollments.RLock()
	defer r.enrollments.RUnlock()
	id, ok := r.byPair[pair{workspaceID, studentID, courseID}]
	if !ok {
		return nil, kernel.NotFound("enrollment not found")
	}
	return clone(r.enrollments.Rows[id]), nil
}

// Update saves the state of e (its status and instants, as the SQL adapter does).
func (r Repository) Update(_ context.Context, e *enrollments.Enrollment) error {
	r.enrollments.Update(e.WorkspaceID, e.ID, func(stored *enrollments.Enrollment) {
		stored.Status, stored.UpdatedAt = e.Status, e.UpdatedAt.UTC()
		stored.RevokedAt, stored.CompletedAt = platform.UTCPtr(e.RevokedAt), platform.UTCPtr(e.CompletedAt)
	})
	return nil
}

// Add records c unless the lesson was completed already; added tells which.
func (p Progress) Add(_ context.Context, c enrollments.LessonCompletion) (bool, error) {
	p.enrollments.Lock()
	defer p.enrollments.Unlock()
	done := p.completions[c.EnrollmentID]
	if done == nil {
		done = map[string]enrollments.LessonCompletion{}
		p.completions[c.EnrollmentID] = done
	}
	if _, ok := done[c.LessonID]; ok {
		return false, nil
	}
	c.CompletedAt = c.CompletedAt.UTC()
	done[c.LessonID] = c
	return true, nil
}

// Get returns the recorded completion or NotFound.
func (p Progress) Get(_ context.Context, workspaceID, enrollmentID, lessonID string) (enrollments.LessonCompletion, error) {
	p.enrollments.RLock()
	defer p.enrollments.RUnlock()
	c, ok := p.completions[enrollmentID][lessonID]
	if !ok || c.WorkspaceID != workspaceID {
		return enrollments.LessonCompletion{}, kernel.NotFound("lesson %s not completed", lessonID)
	}
	return c, nil
}

// Count returns how many lessons the enrollment completed.
func (p Progress) Count(_ context.Context, workspaceID, enrollmentID string) (int, error) {
	p.enrollments.RLock()
	defer p.enrollments.RUnlock()
	return p.countLocked(workspaceID, enrollmentID), nil
}

func (s *Store) countLocked(workspaceID, enrollmentID string) int {
	n := 0
	for _, c := range s.completions[enrollmentID] {
		if c.WorkspaceID == workspaceID {
			n++
		}
	}
	return n
}

// Find reads the enrollment as the API shows it, or NotFound.
func (r Reads) Find(_ context.Context, workspaceID, id string) (query.Enrollment, error) {
	e, err := r.enrollments.Get(workspaceID, id)
	if err != nil {
		return query.Enrollment{}, err
	}
	return query.FromDomain(e), nil
}

func (s *Store) factsLocked(e *enrollments.Enrollment) query.Facts {
	return query.Facts{
		ID: e.ID, StudentID: e.StudentID, CourseID: e.CourseID, Status: string(e.Status), CreatedAt: e.CreatedAt,
		RevokedAt: platform.UTCPtr(e.RevokedAt), CompletedAt: platform.UTCPtr(e.CompletedAt),
		CompletedLessons: s.countLocked(e.WorkspaceID, e.ID),
	}
}

// OfStudents returns the students' enrollments, each student's oldest first.
func (r Reads) OfStudents(_ context.Context, workspaceID string, studentIDs []string) (map[string][]query.Facts, error) {
	r.enrollments.RLock()
	defer r.enrollments.RUnlock()
	wanted := make(map[string]bool, len(studentIDs))
	for _, id := range studentIDs {
		wanted[id] = true
	}
	out := map[string][]query.Facts{}
	for _, e := range r.enrollments.Rows {
		if e.WorkspaceID == workspaceID && wanted[e.StudentID] {
			out[e.StudentID] = append(out[e.StudentID], r.factsLocked(e))
		}
	}
	for _, list := range out {
		sort.Slice(list, func(i, j int) bool {
			if !list[i].CreatedAt.Equal(list[j].CreatedAt) {
				return list[i].CreatedAt.Before(list[j].CreatedAt)
			}
			return list[i].ID < list[j].ID
		})
	}
	return out, nil
}

// OfPair returns the student's enrollment in the course, or NotFound.
func (r Reads) OfPair(_ context.Context, workspaceID, studentID, courseID string) (query.Facts, error) {
	r.enrollments.RLock()
	defer r.enrollments.RUnlock()
	id, ok := r.byPair[pair{workspaceID, studentID, courseID}]
	if !ok {
		return query.Facts{}, kernel.NotFound("no enrollment of student %s in course %s", studentID, courseID)
	}
	return r.factsLocked(r.enrollments.Rows[id]), nil
}

// FirstActivity returns the earliest enrollment or lesson completion, any workspace.
func (r Reads) FirstActivity(context.Context) (time.Time, bool, error) {
	first, ok, _ := r.enrollments.Earliest(func(e *enrollments.Enrollment, consider func(time.Time)) { consider(e.CreatedAt) })
	r.enrollments.RLock()
	defer r.enrollments.RUnlock()
	earliest := platform.Earliest{At: first, OK: ok}
	for _, done := range r.completions {
		for _, c := range done {
			earliest.Consider(c.CompletedAt)
		}
	}
	return earliest.At, earliest.OK, nil
}
