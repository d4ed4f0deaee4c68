package members

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Sessions is the Store seen as members.Sessions.
type Sessions struct{ *Store }

type sessionRow struct {
	TokenHash  []byte     `db:"token_hash"`
	Email      string     `db:"email"`
	CSRFToken  string     `db:"csrf_token"`
	CreatedAt  time.Time  `db:"created_at"`
	LastSeenAt time.Time  `db:"last_seen_at"`
	ExpiresAt  time.Time  `db:"expires_at"`
	EndedAt    *time.Time `db:"ended_at"`
}

// Add inserts s.
func (s Sessions) Add(ctx context.Context, x *members.Session) error {
	_, err := s.db.Write(ctx).ExecContext(ctx, s.q.addSession, x.TokenHash, x.Email, x.CSRFToken, x.CreatedAt, x.LastSeenAt, x.ExpiresAt, x.EndedAt)
	if err != nil {
		return fmt.Errorf("add session: %w", err)
	}
	return nil
}

// Get finds a session by its hash.
func (s Sessions) Get(ctx context.Context, hash []byte) (*members.Session, error) {
	var r sessionRow
	err := s.db.Read(ctx).GetContext(ctx, &r, s.q.getSession, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.Unauthenticated("no such session; sign in again")
	}
	if err != nil {
		return nil, fmt.Errorf("get session: %w", err)
	}
	return &members.Session{TokenHash: r.TokenHash, Email: r.Email, CSRFToken: r.CSRFToken, CreatedAt: r.CreatedAt.UTC(),
		LastSeenAt: r.LastSeenAt.UTC(), ExpiresAt: r.ExpiresAt.UTC(), EndedAt: r.EndedAt}, nil
}

// Touch moves last_seen_at forward.
func (s Sessions) Touch(ctx context.Context, x *members.Session) error {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.q.touchSession, x.LastSeenAt, x.TokenHash, x.LastSeenAt); err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return nil
}

// End ends one session.
func (s Sessions) End(ctx context.Context, hash []byte, at time.Time) error {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.q.endSession, at, hash); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// EndAllOf ends every live session of email.
func (s Sessions) EndAllOf(ctx context.Context, email string, at time.Time) error {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.q.endAllOf, at, email); err != nil {
		return fmt.Errorf("end sessions: %w", err)
	}
	return nil
}

// Prune deletes what no longer serves: requests older than the limits' window, links
// expired a day ago, sessions ended or expired a month ago.
func (s Sessions) Prune(ctx context.Context, now time.Time) (int64, error) {
	var total int64
	for _, q := range []struct {
		stmt   string
		before time.Time
	}{
		{`DELETE FROM sign_in_requests WHERE created_at < ?`, now.Add(-members.RequestWindow)},
		{`DELETE FROM sign_in_links WHERE expires_at < ?`, now.Add(-24 * time.Hour)},
		{`DELETE FROM dashboard_sessions WHERE expires_at < ? OR ended_at < ? OR last_seen_at < ?`, now.Add(-members.AbsoluteTimeout)},
	} {
		args := []any{q.before}
		if strings.Count(q.stmt, "?") == 3 {
			idle := now.Add(-members.IdleTimeout - 30*24*time.Hour)
			args = []any{q.before, q.before, idle}
		}
		res, err := s.db.Write(ctx).ExecContext(ctx, s.db.Rebind(q.stmt), args...)
		if err != nil {
			return total, fmt.Errorf("prune sign-in state: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}
