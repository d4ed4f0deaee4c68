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

// Deps are the module's ports.
type Deps struct {
	Reader   Reader
	Access   Access
	Observer platform.Observer
}

// Application groups the module's use cases: it only reads (the other modules write
// entries through platform.AuditTrail).
type Application struct {
	Queries Queries
}

// Queries read the log.
type Queries struct {
	ListEntries platform.Handler[ListEntries, platform.Page[Entry]]
}

// New wires the use cases to their ports, decorated in the one handler shape.
func New(d Deps) Application {
	return Application{Queries: Queries{ListEntries: platform.Query("list audit entries", d.Observer, d.ListEntries)}}
}

// DefaultPageSize is the page the dashboard shows.
const DefaultPageSize = 50

// ListEntries asks for one page of a workspace's log.
type ListEntries struct {
	WorkspaceID string
	Page        platform.PageRequest
}

// ListEntries returns Forbidden for developers, NotFound for strangers.
func (d Deps) ListEntries(ctx context.Context, q ListEntries) (platform.Page[Entry], error) {
	if err := d.Access.RequireOwner(ctx, q.WorkspaceID); err != nil {
		return platform.Page[Entry]{}, err
	}
	req := q.Page
	if req.Limit <= 0 || req.Limit > 200 {
		req.Limit = DefaultPageSize
	}
	p, err := d.Reader.Page(ctx, q.WorkspaceID, req)
	if err != nil {
		return p, fmt.Errorf("audit log: %w", err)
	}
	return p, nil
}
