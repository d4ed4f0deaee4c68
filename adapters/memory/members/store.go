// Package members is the in-memory twin of adapters/sql/members: member rows, sign-in
// links and requests, and sessions on maps behind one mutex, passing the same contract
// suites (adapters/contracttest). It takes no part in transactions.
package members

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Store holds the data; Rows, Links and Sessions are its three ports.
type Store struct {
	mu       sync.Mutex
	rows     map[[2]string]members.Member // by (workspace, email)
	links    map[string]members.Link      // by token hash
	requests []request
	outbox   map[string]*queued         // by id
	sessions map[string]members.Session // by token hash
}

type queued struct {
	req   members.LinkRequest
	lease time.Time
	done  bool
}

type request struct {
	email, address string
	at             time.Time
}

// New returns an empty store.
func New() *Store {
	return &Store{rows: map[[2]string]members.Member{}, links: map[string]members.Link{}, outbox: map[string]*queued{}, sessions: map[string]members.Session{}}
}

// Rows implements members.Rows.
type Rows struct{ *Store }

// Links implements members.Links.
type Links struct{ *Store }

// Outbox implements members.LinkRequests.
type Outbox struct{ *Store }

// Sessions implements members.Sessions.
type Sessions struct{ *Store }

// OfPerson lists email's rows by workspace.
func (s Rows) OfPerson(_ context.Context, email string) ([]members.Member, error) {
	email = strings.ToLower(email)
	return s.filter(func(m members.Member) bool { return m.Email == email }, func(a, b members.Member) bool {
		return a.WorkspaceID < b.WorkspaceID
	}), nil
}

// OfWorkspace lists a workspace's rows by invitation time, then e-mail.
func (s Rows) OfWorkspace(_ context.Context, workspaceID string) ([]members.Member, error) {
	return s.filter(func(m members.Member) bool { return m.WorkspaceID == workspaceID }, func(a, b members.Member) bool {
		if !a.InvitedAt.Equal(b.InvitedAt) {
			return a.InvitedAt.Before(b.InvitedAt)
		}
		return a.Email < b.Email
	}), nil
}

func (s Rows) filter(keep func(members.Member) bool, less func(a, b members.Member) bool) []members.Member {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []members.Member{}
	for _, m := range s.rows {
		if keep(m) {
			out = append(out, copyMember(m))
		}
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}

// Get returns email's row in workspaceID, or NotFound.
func (s Rows) Get(_ context.Context, workspaceID, email string) (members.Member, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.rows[[2]string{workspaceID, strings.ToLower(email)}]
	if !ok {
		return members.Member{}, kernel.NotFound("member %s not found", email)
	}
	return copyMember(m), nil
}

// Add stores an invitation; a second row for the person is Invalid.
func (s Rows) Add(_ context.Context, m *members.Member) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]string{m.WorkspaceID, m.Email}
	if _, ok := s.rows[key]; ok {
		return kernel.Invalid("email", "%s already belongs to this workspace", m.Email)
	}
	s.rows[key] = copyMember(*m)
	return nil
}

// Remove deletes the row, or returns NotFound.
func (s Rows) Remove(_ context.Context, workspaceID, email string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]string{workspaceID, email}
	if _, ok := s.rows[key]; !ok {
		return kernel.NotFound("member %s not found", email)
	}
	delete(s.rows, key)
	return nil
}

// MarkJoined sets joinedAt unless it is set.
func (s Rows) MarkJoined(_ context.Context, workspaceID, email string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]string{workspaceID, email}
	if m, ok := s.rows[key]; ok && m.JoinedAt == nil {
		at = at.UTC()
		m.JoinedAt = &at
		s.rows[key] = m
	}
	return nil
}

func copyMember(m members.Member) members.Member {
	m.InvitedAt = m.InvitedAt.UTC()
	m.JoinedAt = utc(m.JoinedAt)
	return m
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
