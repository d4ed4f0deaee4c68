package members

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Session lifetimes of the contract.
const (
	IdleTimeout     = 12 * time.Hour
	AbsoluteTimeout = 30 * 24 * time.Hour
	// touchEvery bounds how often a request writes last_seen_at.
	touchEvery = time.Minute
)

// Session is a signed-in person; the cookie carries the token, storage its hash.
type Session struct {
	TokenHash  []byte
	Email      string
	CSRFToken  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time // absolute expiry
	EndedAt    *time.Time
}

// NewSession starts a session for email and returns it with the cookie token.
func NewSession(random io.Reader, email string, now time.Time) (*Session, string, error) {
	token, err := randomToken(random)
	if err != nil {
		return nil, "", fmt.Errorf("session: %w", err)
	}
	csrf, err := randomToken(random)
	if err != nil {
		return nil, "", fmt.Errorf("session: %w", err)
	}
	return &Session{TokenHash: HashToken(token), Email: email, CSRFToken: csrf,
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(AbsoluteTimeout)}, token, nil
}

// Live tells whether the session may be used at now: not ended, not idle for 12 hours,
// not older than 30 days.
func (s *Session) Live(now time.Time) bool {
	return s.EndedAt == nil && now.Before(s.ExpiresAt) && now.Before(s.LastSeenAt.Add(IdleTimeout))
}

// Touch moves the idle clock; it reports whether storage needs the new time.
func (s *Session) Touch(now time.Time) bool {
	if now.Sub(s.LastSeenAt) < touchEvery {
		return false
	}
	s.LastSeenAt = now
	return true
}

// Sessions stores sessions.
type Sessions interface {
	Add(ctx context.Context, s *Session) error
	// Get returns kernel Unauthenticated when no session has this hash.
	Get(ctx context.Context, tokenHash []byte) (*Session, error)
	Touch(ctx context.Context, s *Session) error
	End(ctx context.Context, tokenHash []byte, at time.Time) error
}
