// Package audit reads the audit log: who changed keys, members, webhooks or sign-in
// state, newest first. Entries are written by the other modules' command handlers,
// through platform.AuditTrail, inside the transaction of their change.
package audit

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Retention is how long entries are kept at least (nothing prunes them sooner).
const Retention = 366 * 24 * time.Hour

// Entry is one line of the audit log.
type Entry struct {
	ID          string
	WorkspaceID string
	Actor       string
	Address     string
	Action      string
	Target      string
	Detail      string
	CreatedAt   time.Time
}

// Reader pages a workspace's entries newest first, by (created_at, id).
type Reader interface {
	Page(ctx context.Context, workspaceID string, req platform.PageRequest) (platform.Page[Entry], error)
}

// Access tells whether the actor in ctx may read a workspace's audit log (owners only).
type Access interface {
	RequireOwner(ctx context.Context, workspaceID string) error
}

// ListHandler reads one page of the log.
type ListHandler struct {
	reader Reader
	access Access
}

// NewListHandler builds the handler.
func NewListHandler(r Reader, a Access) ListHandler { return ListHandler{reader: r, access: a} }

// DefaultPageSize is the page the dashboard shows.
const DefaultPageSize = 50

// Handle returns Forbidden for developers, NotFound for strangers.
func (h ListHandler) Handle(ctx context.Context, workspaceID string, req platform.PageRequest) (platform.Page[Entry], error) {
	if err := h.access.RequireOwner(ctx, workspaceID); err != nil {
		return platform.Page[Entry]{}, err
	}
	if req.Limit <= 0 || req.Limit > 200 {
		req.Limit = DefaultPageSize
	}
	p, err := h.reader.Page(ctx, workspaceID, req)
	if err != nil {
		return p, fmt.Errorf("audit log: %w", err)
	}
	return p, nil
}
