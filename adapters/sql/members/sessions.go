package members

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Sessions is the Store seen as members.Sessions.
type Sessions struct{ *Store }

// Add inserts s.
func (s Sessions) Add(ctx context.Context, x *members.Session) error {
	return s.DB.Exec(ctx, "add session", s.Q.AddSession, x.TokenHash, x.Email, x.CSRFToken, x.CreatedAt, x.LastSeenAt, x.ExpiresAt, x.EndedAt)
}

// Get finds a session by its hash.
func (s Sessions) Get(ctx context.Context, hash []byte) (*members.Session, error) {
	var x members.Session
	if err := sqldb.One(ctx, s.DB.Read(ctx), &x, kernel.Unauthenticated("no such session; sign in again"), s.Q.GetSession, hash); err != nil {
		return nil, err
	}
	return &x, nil
}

// Touch moves last_seen_at forward.
func (s Sessions) Touch(ctx context.Context, x *members.Session) error {
	return s.DB.Exec(ctx, "touch session", s.Q.TouchSession, x.LastSeenAt, x.TokenHash, x.LastSeenAt)
}

// End ends one session.
func (s Sessions) End(ctx context.Context, hash []byte, at time.Time) error {
	return s.DB.Exec(ctx, "end session", s.Q.EndSession, at, hash)
}

// Prune deletes what no longer serves: requests older than the limits' window, handled
// outbox rows older than a day, links expired a day ago (they count for the daily
// invitation limit until then), sessions ended or expired a month ago.
func (s Sessions) Prune(ctx context.Context, now time.Time) (int64, error) {
	var total int64
	ended := now.Add(-members.AbsoluteTimeout)
	idle := now.Add(-members.IdleTimeout - 30*24*time.Hour)
	for _, q := range []struct {
		stmt string
		args []any
	}{
		{`DELETE FROM sign_in_requests WHERE created_at < ?`, []any{now.Add(-members.RequestWindow)}},
		{`DELETE FROM sign_in_outbox WHERE done_at < ?`, []any{now.Add(-24 * time.Hour)}},
		{`DELETE FROM sign_in_links WHERE expires_at < ?`, []any{now.Add(-members.InvitationWindow)}},
		{`DELETE FROM dashboard_sessions WHERE expires_at < ? OR ended_at < ? OR last_seen_at < ?`, []any{ended, ended, idle}},
	} {
		res, err := s.DB.Write(ctx).ExecContext(ctx, s.DB.Rebind(q.stmt), q.args...)
		if err != nil {
			return total, fmt.Errorf("prune sign-in state: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}
