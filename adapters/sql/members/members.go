// Package members stores the dashboard's people, sign-in links, the sign-in page's
// requests and outbox, and sessions (tables workspace_members, sign_in_links,
// sign_in_requests, sign_in_outbox, dashboard_sessions). The founding
// owner of a workspace belongs to the workspaces module: members.Directory reads it
// through that module's published port and these rows together.
package members

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Store implements members.Rows (Rows), members.Links (Links), members.LinkRequests
// (Outbox) and members.Sessions (Sessions).
type Store struct{ sqldb.Prepared[statements] }

type statements struct {
	OfPerson, Get, List, Add, Remove, Joined                         string
	AddLink, GetLink, UseLink, CountLinks, AddRequest, CountRequests string
	Enqueue, Due, Lease, Done                                        string
	AddSession, GetSession, TouchSession, EndSession                 string
}

// NewStore prepares the statements for db's dialect.
func NewStore(db *sqldb.DB) *Store {
	const cols = `SELECT workspace_id, email, role, invited_by, invited_at, joined_at FROM workspace_members`
	return &Store{sqldb.Prepare(db, statements{
		OfPerson: cols + ` WHERE email = ? ORDER BY workspace_id`,
		Get:      cols + ` WHERE workspace_id = ? AND email = ?`,
		List:     cols + ` WHERE workspace_id = ? ORDER BY invited_at, email`,
		Add:      `INSERT INTO workspace_members (workspace_id, email, role, invited_by, invited_at, joined_at) VALUES (?, ?, ?, ?, ?, ?)`,
		Remove:   `DELETE FROM workspace_members WHERE workspace_id = ? AND email = ?`,
		Joined:   `UPDATE workspace_members SET joined_at = ? WHERE workspace_id = ? AND email = ? AND joined_at IS NULL`,

		AddLink:       `INSERT INTO sign_in_links (token_hash, email, workspace_id, purpose, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		GetLink:       `SELECT token_hash, email, workspace_id, purpose, created_at, expires_at, used_at FROM sign_in_links WHERE token_hash = ?`,
		UseLink:       `UPDATE sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`,
		CountLinks:    `SELECT COUNT(*) FROM sign_in_links WHERE email = ? AND purpose = ? AND created_at > ?`,
		AddRequest:    `INSERT INTO sign_in_requests (email, address, created_at) VALUES (?, ?, ?)`,
		CountRequests: `SELECT (SELECT COUNT(*) FROM sign_in_requests WHERE email = ? AND address = ? AND created_at > ?) AS by_pair, (SELECT COUNT(*) FROM sign_in_requests WHERE address = ? AND created_at > ?) AS by_client`,

		Enqueue: `INSERT INTO sign_in_outbox (id, email, address, requested_at) VALUES (?, ?, ?, ?)`,
		// The outbox serves every workspace; requests are few and leave it within seconds.
		Due: `SELECT id, email, address, requested_at FROM sign_in_outbox WHERE done_at IS NULL AND (lease_until IS NULL OR lease_until <= ?) ORDER BY requested_at, id LIMIT ?`,
		// A conditional update is the claim on both engines: only one instance changes the row.
		Lease: `UPDATE sign_in_outbox SET lease_until = ? WHERE id = ? AND done_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)`,
		Done:  `UPDATE sign_in_outbox SET done_at = ?, lease_until = NULL WHERE id = ?`,

		AddSession:   `INSERT INTO dashboard_sessions (token_hash, email, csrf_token, created_at, last_seen_at, expires_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		GetSession:   `SELECT token_hash, email, csrf_token, created_at, last_seen_at, expires_at, ended_at FROM dashboard_sessions WHERE token_hash = ?`,
		TouchSession: `UPDATE dashboard_sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?`,
		EndSession:   `UPDATE dashboard_sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL`,
	})}
}

// Rows is the Store seen as members.Rows.
type Rows struct{ *Store }

func (s Rows) selectRows(ctx context.Context, stmt string, args ...any) ([]members.Member, error) {
	return sqldb.All[members.Member](ctx, s.DB.Read(ctx), stmt, args...)
}

// OfPerson lists email's rows.
func (s Rows) OfPerson(ctx context.Context, email string) ([]members.Member, error) {
	return s.selectRows(ctx, s.Q.OfPerson, strings.ToLower(email))
}

// OfWorkspace lists a workspace's rows by invitation time, then e-mail.
func (s Rows) OfWorkspace(ctx context.Context, workspaceID string) ([]members.Member, error) {
	return s.selectRows(ctx, s.Q.List, workspaceID)
}

// Get returns email's row in workspaceID, or NotFound.
func (s Rows) Get(ctx context.Context, workspaceID, email string) (members.Member, error) {
	var m members.Member
	err := sqldb.One(ctx, s.DB.Read(ctx), &m, kernel.NotFound("member %s not found", email), s.Q.Get, workspaceID, strings.ToLower(email))
	return m, err
}

// Add inserts an invitation.
func (s Rows) Add(ctx context.Context, m *members.Member) error {
	_, err := s.DB.Write(ctx).ExecContext(ctx, s.Q.Add, m.WorkspaceID, m.Email, string(m.Role), m.InvitedBy, m.InvitedAt, m.JoinedAt)
	if sqldb.IsUniqueViolation(err) {
		return kernel.Invalid("email", "%s already belongs to this workspace", m.Email)
	}
	if err != nil {
		return fmt.Errorf("add member: %w", err)
	}
	return nil
}

// Remove deletes the member row.
func (s Rows) Remove(ctx context.Context, workspaceID, email string) error {
	res, err := s.DB.Write(ctx).ExecContext(ctx, s.Q.Remove, workspaceID, email)
	if err != nil {
		return fmt.Errorf("remove member: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return kernel.NotFound("member %s not found", email)
	}
	return nil
}

// MarkJoined records the first sign-in after an invitation.
func (s Rows) MarkJoined(ctx context.Context, workspaceID, email string, at time.Time) error {
	return s.DB.Exec(ctx, "mark joined", s.Q.Joined, at, workspaceID, email)
}
