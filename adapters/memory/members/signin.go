package members

import (
	"context"
	"sort"
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

// RecordRequest notes a request and counts the window's requests by pair and client.
func (s Links) RecordRequest(_ context.Context, email, address string, now, since time.Time) (int, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, request{email: email, address: address, at: now})
	byPair, byClient := 0, 0
	for _, r := range s.requests {
		if r.at.After(since) && r.address == address {
			byClient++
			if r.email == email {
				byPair++
			}
		}
	}
	return byPair, byClient, nil
}

// CountIssued counts email's links of purpose made after since.
func (s Links) CountIssued(_ context.Context, email string, purpose members.Purpose, since time.Time) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.links {
		if l.Email == email && l.Purpose == purpose && l.CreatedAt.After(since) {
			n++
		}
	}
	return n, nil
}

// Enqueue stores r.
func (s Outbox) Enqueue(_ context.Context, r members.LinkRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.RequestedAt = r.RequestedAt.UTC()
	s.outbox[r.ID] = &queued{req: r}
	return nil
}

// ClaimDue leases up to limit requests not done, oldest first.
func (s Outbox) ClaimDue(_ context.Context, now, leaseUntil time.Time, limit int) ([]members.LinkRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []*queued
	for _, q := range s.outbox {
		if !q.done && !q.lease.After(now) {
			due = append(due, q)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		if !due[i].req.RequestedAt.Equal(due[j].req.RequestedAt) {
			return due[i].req.RequestedAt.Before(due[j].req.RequestedAt)
		}
		return due[i].req.ID < due[j].req.ID
	})
	out := []members.LinkRequest{}
	for _, q := range due[:min(limit, len(due))] {
		q.lease = leaseUntil
		out = append(out, q.req)
	}
	return out, nil
}

// Done marks the request handled.
func (s Outbox) Done(_ context.Context, id string, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q, ok := s.outbox[id]; ok {
		q.done = true
	}
	return nil
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
