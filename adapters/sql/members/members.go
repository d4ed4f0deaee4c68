// Package members stores the dashboard's people, sign-in links and sessions (tables
// workspace_members, sign_in_links, sign_in_requests, dashboard_sessions). The founding
// owner of a workspace is read from workspaces.owner_email: the workspaces module owns
// that table, this package only reads the two columns it needs.
package members

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Store implements members.Repository, members.Links and members.Sessions.
type Store struct {
	db *sqldb.DB
	q  statements
}

type statements struct {
	memberships, membership, list, add, remove, joined         string
	addLink, getLink, useLink, addRequest, countRequests       string
	addSession, getSession, touchSession, endSession, endAllOf string
}

// NewStore prepares the statements for db's dialect.
func NewStore(db *sqldb.DB) *Store {
	r := db.Rebind
	// A person's workspaces: founded ones (owner_email, compared case-insensitively) and
	// memberships. LOWER(owner_email) has no index: workspaces are few per deployment
	// compared with requests, and sign-in is rare.
	const memberships = `
		SELECT w.id AS workspace_id, w.name AS workspace_name, CAST(? AS TEXT) AS email, CAST('owner' AS TEXT) AS role
		  FROM workspaces w WHERE LOWER(w.owner_email) = ?
		UNION
		SELECT w.id, w.name, m.email, m.role
		  FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
		 WHERE m.email = ? AND LOWER(w.owner_email) <> m.email`
	return &Store{db: db, q: statements{
		memberships: r(`SELECT * FROM (` + memberships + `) x ORDER BY workspace_name, workspace_id`),
		membership: r(`
			SELECT w.id AS workspace_id, w.name AS workspace_name, CAST(? AS TEXT) AS email,
			       CASE WHEN LOWER(w.owner_email) = CAST(? AS TEXT) THEN 'owner' ELSE m.role END AS role
			  FROM workspaces w LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.email = ?
			 WHERE w.id = ? AND (LOWER(w.owner_email) = ? OR m.email IS NOT NULL)`),
		list: r(`
			SELECT workspace_id, email, role, invited_by, invited_at, joined_at FROM workspace_members
			 WHERE workspace_id = ? ORDER BY invited_at, email`),
		add:    r(`INSERT INTO workspace_members (workspace_id, email, role, invited_by, invited_at, joined_at) VALUES (?, ?, ?, ?, ?, ?)`),
		remove: r(`DELETE FROM workspace_members WHERE workspace_id = ? AND email = ?`),
		joined: r(`UPDATE workspace_members SET joined_at = ? WHERE workspace_id = ? AND email = ? AND joined_at IS NULL`),

		addLink:       r(`INSERT INTO sign_in_links (token_hash, email, workspace_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?)`),
		getLink:       r(`SELECT token_hash, email, workspace_id, created_at, expires_at, used_at FROM sign_in_links WHERE token_hash = ?`),
		useLink:       r(`UPDATE sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`),
		addRequest:    r(`INSERT INTO sign_in_requests (email, address, created_at) VALUES (?, ?, ?)`),
		countRequests: r(`SELECT (SELECT COUNT(*) FROM sign_in_requests WHERE email = ? AND created_at > ?) AS by_email, (SELECT COUNT(*) FROM sign_in_requests WHERE address = ? AND created_at > ?) AS by_address`),

		addSession:   r(`INSERT INTO dashboard_sessions (token_hash, email, csrf_token, created_at, last_seen_at, expires_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
		getSession:   r(`SELECT token_hash, email, csrf_token, created_at, last_seen_at, expires_at, ended_at FROM dashboard_sessions WHERE token_hash = ?`),
		touchSession: r(`UPDATE dashboard_sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?`),
		endSession:   r(`UPDATE dashboard_sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL`),
		endAllOf:     r(`UPDATE dashboard_sessions SET ended_at = ? WHERE email = ? AND ended_at IS NULL`),
	}}
}

type membershipRow struct {
	WorkspaceID   string `db:"workspace_id"`
	WorkspaceName string `db:"workspace_name"`
	Email         string `db:"email"`
	Role          string `db:"role"`
}

func (m membershipRow) view() members.Membership {
	return members.Membership{WorkspaceID: m.WorkspaceID, WorkspaceName: m.WorkspaceName, Email: m.Email, Role: members.Role(m.Role)}
}

// Memberships lists email's workspaces by name.
func (s *Store) Memberships(ctx context.Context, email string) ([]members.Membership, error) {
	email = strings.ToLower(email)
	var rows []membershipRow
	if err := s.db.Read(ctx).SelectContext(ctx, &rows, s.q.memberships, email, email, email); err != nil {
		return nil, fmt.Errorf("memberships: %w", err)
	}
	out := make([]members.Membership, len(rows))
	for i, r := range rows {
		out[i] = r.view()
	}
	return out, nil
}

// Membership returns email's role in workspaceID or NotFound.
func (s *Store) Membership(ctx context.Context, workspaceID, email string) (members.Membership, error) {
	email = strings.ToLower(email)
	var row membershipRow
	err := s.db.Read(ctx).GetContext(ctx, &row, s.q.membership, email, email, email, workspaceID, email)
	if errors.Is(err, sql.ErrNoRows) {
		return members.Membership{}, kernel.NotFound("workspace %s not found", workspaceID)
	}
	if err != nil {
		return members.Membership{}, fmt.Errorf("membership: %w", err)
	}
	return row.view(), nil
}

type memberRow struct {
	WorkspaceID string     `db:"workspace_id"`
	Email       string     `db:"email"`
	Role        string     `db:"role"`
	InvitedBy   string     `db:"invited_by"`
	InvitedAt   time.Time  `db:"invited_at"`
	JoinedAt    *time.Time `db:"joined_at"`
}

// List returns the founder first, then invited members; NotFound for an unknown workspace.
func (s *Store) List(ctx context.Context, workspaceID string) ([]members.Member, error) {
	var founder struct {
		OwnerEmail string    `db:"owner_email"`
		CreatedAt  time.Time `db:"created_at"`
	}
	err := s.db.Read(ctx).GetContext(ctx, &founder, s.db.Rebind(`SELECT owner_email, created_at FROM workspaces WHERE id = ?`), workspaceID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("workspace %s not found", workspaceID)
	}
	if err != nil {
		return nil, fmt.Errorf("workspace owner: %w", err)
	}
	created := founder.CreatedAt.UTC()
	out := []members.Member{{WorkspaceID: workspaceID, Email: strings.ToLower(founder.OwnerEmail), Role: members.Owner,
		InvitedAt: created, JoinedAt: &created, Founder: true}}
	var rows []memberRow
	if err := s.db.Read(ctx).SelectContext(ctx, &rows, s.q.list, workspaceID); err != nil {
		return nil, fmt.Errorf("list members: %w", err)
	}
	for _, r := range rows {
		if r.Email == out[0].Email {
			continue
		}
		var joined *time.Time
		if r.JoinedAt != nil {
			j := r.JoinedAt.UTC()
			joined = &j
		}
		out = append(out, members.Member{WorkspaceID: r.WorkspaceID, Email: r.Email, Role: members.Role(r.Role),
			InvitedBy: r.InvitedBy, InvitedAt: r.InvitedAt.UTC(), JoinedAt: joined})
	}
	return out, nil
}

// Add inserts an invitation.
func (s *Store) Add(ctx context.Context, m *members.Member) error {
	_, err := s.db.Write(ctx).ExecContext(ctx, s.q.add, m.WorkspaceID, m.Email, string(m.Role), m.InvitedBy, m.InvitedAt, m.JoinedAt)
	if sqldb.IsUniqueViolation(err) {
		return kernel.Invalid("email", "%s already belongs to this workspace", m.Email)
	}
	if err != nil {
		return fmt.Errorf("add member: %w", err)
	}
	return nil
}

// Remove deletes the member row.
func (s *Store) Remove(ctx context.Context, workspaceID, email string) error {
	res, err := s.db.Write(ctx).ExecContext(ctx, s.q.remove, workspaceID, email)
	if err != nil {
		return fmt.Errorf("remove member: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return kernel.NotFound("member %s not found", email)
	}
	return nil
}

// MarkJoined records the first sign-in after an invitation.
func (s *Store) MarkJoined(ctx context.Context, workspaceID, email string, at time.Time) error {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.q.joined, at, workspaceID, email); err != nil {
		return fmt.Errorf("mark joined: %w", err)
	}
	return nil
}
