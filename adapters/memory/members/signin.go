package members

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Add stores a link.
func (s Links) Add(_ context.Context, l *members.Link) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *l
	c.TokenHash = append([]byte(nil), l.TokenHash...)
	c.CreatedAt, c.ExpiresAt, c.UsedAt = l.CreatedAt.UTC(), l.ExpiresAt.UTC(), utc(l.UsedAt)
	s.links[string(l.TokenHash)] = c
	return nil
}

// Get finds a link by its hash.
func (s Links) Get(_ context.Context, hash []byte) (*members.Link, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.links[string(hash)]
	if !ok {
		return nil, members.ErrLinkUnusable
	}
	l.UsedAt = utc(l.UsedAt)
	return &l, nil
}

// SaveUse marks the link used once: a second use changes nothing.
func (s Links) SaveUse(_ context.Context, l *members.Link) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stored, ok := s.links[string(l.TokenHash)]
	if !ok || stored.UsedAt != nil {
		return false, nil
	}
	stored.UsedAt = utc(l.UsedAt)
	s.links[string(l.TokenHash)] = stored
	return true, nil
}

// RecordRequest notes a request and counts the window's requests by e-mail and address.
func (s Links) RecordRequest(_ context.Context, email, address string, now, since time.Time) (int, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, request{email: email, address: address, at: now})
	byEmail, byAddress := 0, 0
	for _, r := range s.requests {
		if r.at.After(since) {
			if r.email == email {
				byEmail++
			}
			if r.address == address {
				byAddress++
			}
		}
	}
	return byEmail, byAddress, nil
}

// Add stores a session.
func (s Sessions) Add(_ context.Context, x *members.Session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *x
	c.TokenHash = append([]byte(nil), x.TokenHash...)
	c.CreatedAt, c.LastSeenAt, c.ExpiresAt, c.EndedAt = x.CreatedAt.UTC(), x.LastSeenAt.UTC(), x.ExpiresAt.UTC(), utc(x.EndedAt)
	s.sessions[string(x.TokenHash)] = c
	return nil
}

// Get finds a session by its hash.
func (s Sessions) Get(_ context.Context, hash []byte) (*members.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, ok := s.sessions[string(hash)]
	if !ok {
		return nil, kernel.Unauthenticated("no such session; sign in again")
	}
	x.EndedAt = utc(x.EndedAt)
	return &x, nil
}

// Touch moves lastSeenAt forward, never back.
func (s Sessions) Touch(_ context.Context, x *members.Session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if stored, ok := s.sessions[string(x.TokenHash)]; ok && stored.LastSeenAt.Before(x.LastSeenAt) {
		stored.LastSeenAt = x.LastSeenAt.UTC()
		s.sessions[string(x.TokenHash)] = stored
	}
	return nil
}

// End ends one session unless it has ended.
func (s Sessions) End(_ context.Context, hash []byte, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if x, ok := s.sessions[string(hash)]; ok && x.EndedAt == nil {
		x.EndedAt = utc(&at)
		s.sessions[string(hash)] = x
	}
	return nil
}

// EndAllOf ends every live session of email.
func (s Sessions) EndAllOf(_ context.Context, email string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, x := range s.sessions {
		if x.Email == email && x.EndedAt == nil {
			x.EndedAt = utc(&at)
			s.sessions[k] = x
		}
	}
	return nil
}
