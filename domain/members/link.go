package members

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// LinkTTL is how long a sign-in link works.
const LinkTTL = 15 * time.Minute

// Request limits for sign-in links, per window. A client is refused (429) after
// RequestsPerPair requests for one address or RequestsPerClient in all, so that it can
// neither probe many addresses nor lock anyone else out. MailsPerEmail is the global
// ceiling per address: beyond it requests are still answered, but no more mail goes, so
// that nobody can flood a mailbox from many clients.
const (
	RequestWindow     = 15 * time.Minute
	RequestsPerPair   = 5
	RequestsPerClient = 20
	MailsPerEmail     = 10
)

// Invitation limits: pending invitations per workspace, and invitations one address
// receives (from every workspace, removed ones included) per InvitationWindow.
const (
	PendingPerWorkspace = 20
	InvitationsPerEmail = 3
	InvitationWindow    = 24 * time.Hour
)

// Purpose is what a link does when used.
type Purpose string

// A sign-in link opens a workspace the person joined; an invitation link is the only
// way to accept an invitation (mailed to the invitee alone).
const (
	ForSignIn     Purpose = "sign_in"
	ForInvitation Purpose = "invitation"
)

// Link is a one-time sign-in link; only the hash of its token is stored.
type Link struct {
	TokenHash   []byte
	Email       string
	WorkspaceID string
	Purpose     Purpose
	CreatedAt   time.Time
	ExpiresAt   time.Time
	UsedAt      *time.Time
}

// NewLink draws a token (256 random bits) and returns the link and the token to send.
func NewLink(random io.Reader, purpose Purpose, email, workspaceID string, now time.Time) (*Link, string, error) {
	token, err := randomToken(random)
	if err != nil {
		return nil, "", fmt.Errorf("sign-in link: %w", err)
	}
	return &Link{TokenHash: HashToken(token), Email: email, WorkspaceID: workspaceID, Purpose: purpose,
		CreatedAt: now, ExpiresAt: now.Add(LinkTTL)}, token, nil
}

// ErrLinkUnusable is the one answer for a link that is unknown, expired or used: the
// page does not tell which.
var ErrLinkUnusable = kernel.Unauthenticated("this sign-in link has expired or has already been used; ask for a new one")

// Use consumes the link at now.
func (l *Link) Use(now time.Time) error {
	if l.UsedAt != nil || !now.Before(l.ExpiresAt) {
		return ErrLinkUnusable
	}
	l.UsedAt = &now
	return nil
}

// HashToken is what is stored for a token: SHA-256 suffices for 256 random bits.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

func randomToken(random io.Reader) (string, error) {
	buf := make([]byte, 32)
	if _, err := io.ReadFull(random, buf); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(buf), nil
}

// Links stores sign-in links and the requests for them.
type Links interface {
	Add(ctx context.Context, l *Link) error
	// Get returns ErrLinkUnusable when no link has this hash.
	Get(ctx context.Context, tokenHash []byte) (*Link, error)
	// SaveUse marks the link used unless it already was; used reports whether it changed.
	SaveUse(ctx context.Context, l *Link) (used bool, err error)
	// RecordRequest notes a request for a link and returns how many requests the pair
	// (email, address) and the client address made since since, this one included.
	RecordRequest(ctx context.Context, email, address string, now, since time.Time) (byPair, byClient int, err error)
	// CountIssued counts the links of purpose made for email since since.
	CountIssued(ctx context.Context, email string, purpose Purpose, since time.Time) (int, error)
}
