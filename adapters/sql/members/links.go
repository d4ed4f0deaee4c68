package members

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/domain/members"
)

// Links is the Store seen as members.Links.
type Links struct{ *Store }

type linkRow struct {
	TokenHash   []byte     `db:"token_hash"`
	Email       string     `db:"email"`
	WorkspaceID string     `db:"workspace_id"`
	CreatedAt   time.Time  `db:"created_at"`
	ExpiresAt   time.Time  `db:"expires_at"`
	UsedAt      *time.Time `db:"used_at"`
}

// Add inserts l.
func (s Links) Add(ctx context.Context, l *members.Link) error {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.q.addLink, l.TokenHash, l.Email, l.WorkspaceID, l.CreatedAt, l.ExpiresAt, l.UsedAt); err != nil {
		return fmt.Errorf("add sign-in link: %w", err)
	}
	return nil
}

// Get finds a link by its hash.
func (s Links) Get(ctx context.Context, hash []byte) (*members.Link, error) {
	var r linkRow
	err := s.db.Read(ctx).GetContext(ctx, &r, s.q.getLink, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, members.ErrLinkUnusable
	}
	if err != nil {
		return nil, fmt.Errorf("get sign-in link: %w", err)
	}
	return &members.Link{TokenHash: r.TokenHash, Email: r.Email, WorkspaceID: r.WorkspaceID,
		CreatedAt: r.CreatedAt.UTC(), ExpiresAt: r.ExpiresAt.UTC(), UsedAt: r.UsedAt}, nil
}

// SaveUse marks the link used once: a concurrent second use changes no row.
func (s Links) SaveUse(ctx context.Context, l *members.Link) (bool, error) {
	return s.db.Changes(ctx, "use sign-in link", s.q.useLink, l.UsedAt, l.TokenHash)
}

// RecordRequest inserts the request and counts the window's requests.
func (s Links) RecordRequest(ctx context.Context, email, address string, now, since time.Time) (int, int, error) {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.q.addRequest, email, address, now); err != nil {
		return 0, 0, fmt.Errorf("record sign-in request: %w", err)
	}
	var c struct {
		ByEmail   int `db:"by_email"`
		ByAddress int `db:"by_address"`
	}
	if err := s.db.Write(ctx).GetContext(ctx, &c, s.q.countRequests, email, since, address, since); err != nil {
		return 0, 0, fmt.Errorf("count sign-in requests: %w", err)
	}
	return c.ByEmail, c.ByAddress, nil
}
