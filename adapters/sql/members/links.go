package members

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Links is the Store seen as members.Links.
type Links struct{ *Store }

// Add inserts l.
func (s Links) Add(ctx context.Context, l *members.Link) error {
	return s.DB.Exec(ctx, "add sign-in link", s.Q.AddLink, l.TokenHash, l.Email, l.WorkspaceID, string(l.Purpose), l.CreatedAt, l.ExpiresAt, l.UsedAt)
}

// Get finds a link by its hash.
func (s Links) Get(ctx context.Context, hash []byte) (*members.Link, error) {
	var l members.Link
	if err := sqldb.One(ctx, s.DB.Read(ctx), &l, members.ErrLinkUnusable, s.Q.GetLink, hash); err != nil {
		return nil, err
	}
	return &l, nil
}

// SaveUse marks the link used once: a concurrent second use changes no row.
func (s Links) SaveUse(ctx context.Context, l *members.Link) (bool, error) {
	return s.DB.Changes(ctx, "use sign-in link", s.Q.UseLink, l.UsedAt, l.TokenHash)
}

// CountIssued counts email's links of purpose made after since.
func (s Links) CountIssued(ctx context.Context, email string, purpose members.Purpose, since time.Time) (int, error) {
	var n int
	if err := s.DB.Write(ctx).GetContext(ctx, &n, s.Q.CountLinks, email, string(purpose), since); err != nil {
		return 0, fmt.Errorf("count sign-in links: %w", err)
	}
	return n, nil
}

// RecordRequest inserts the request and counts the window's requests.
func (s Links) RecordRequest(ctx context.Context, email, address string, now, since time.Time) (int, int, error) {
	if err := s.DB.Exec(ctx, "record sign-in request", s.Q.AddRequest, email, address, now); err != nil {
		return 0, 0, err
	}
	var c struct {
		ByPair   int `db:"by_pair"`
		ByClient int `db:"by_client"`
	}
	if err := s.DB.Write(ctx).GetContext(ctx, &c, s.Q.CountRequests, email, address, since, address, since); err != nil {
		return 0, 0, fmt.Errorf("count sign-in requests: %w", err)
	}
	return c.ByPair, c.ByClient, nil
}
