// Package certificates is the in-memory twin of adapters/sql/certificates: the
// certificate store on a map behind a mutex. It keeps the same rules (one certificate
// per workspace, student and course, so of concurrent first issues exactly one is
// added; NotFound outside the workspace) and passes the same contract suite
// (adapters/contracttest). It does not take part in transactions.
package certificates

import (
	"context"
	"fmt"
	"sync"

	"github.com/creatorapi/creatorapi/domain/certificates"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// pair is the unique key of a certificate.
type pair struct{ workspaceID, studentID, courseID string }

// Store implements certificates/command.Store (certificates.Repository and Find).
type Store struct {
	mu     sync.RWMutex
	byPair map[pair]certificates.Certificate
	ids    map[string]bool
}

// New returns an empty store.
func New() *Store {
	return &Store{byPair: map[pair]certificates.Certificate{}, ids: map[string]bool{}}
}

// Add inserts c unless the student already has a certificate for the course.
func (s *Store) Add(_ context.Context, c *certificates.Certificate) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := pair{c.WorkspaceID, c.StudentID, c.CourseID}
	if _, taken := s.byPair[key]; taken {
		return false, nil
	}
	if s.ids[c.ID] {
		return false, fmt.Errorf("insert certificate: id %s exists", c.ID) // a primary key violation
	}
	stored := *c
	stored.IssuedAt = c.IssuedAt.UTC()
	s.byPair[key], s.ids[c.ID] = stored, true
	return true, nil
}

// Find returns the student's certificate for the course, or NotFound.
func (s *Store) Find(_ context.Context, workspaceID, studentID, courseID string) (*certificates.Certificate, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.byPair[pair{workspaceID, studentID, courseID}]
	if !ok {
		return nil, kernel.NotFound("no certificate of student %s for course %s", studentID, courseID)
	}
	return &c, nil
}
