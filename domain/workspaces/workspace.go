// Package workspaces holds the tenant: every other record belongs to exactly one workspace.
package workspaces

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes workspace ids (org_...).
const IDPrefix = "org"

// Workspace is a creator's business; its owner receives operational notices.
type Workspace struct {
	ID         string
	Name       string
	OwnerEmail string
	// SandboxOf is the live workspace this one is the sandbox of; empty for a live one.
	SandboxOf string
	CreatedAt time.Time
}

// New validates and builds a workspace.
func New(id, name, ownerEmail string, now time.Time) (*Workspace, error) {
	name, err := kernel.RequireName("name", name, 200)
	if err != nil {
		return nil, err
	}
	email, err := kernel.NormalizeEmail("ownerEmail", ownerEmail)
	if err != nil {
		return nil, err
	}
	return &Workspace{ID: id, Name: name, OwnerEmail: email, CreatedAt: now}, nil
}

// Repository stores workspaces.
type Repository interface {
	Add(ctx context.Context, w *Workspace) error
	// AddSandbox inserts w unless its id exists already, and reports whether it did.
	AddSandbox(ctx context.Context, w *Workspace) (bool, error)
	// Get returns a kernel NotFound error when id is unknown.
	Get(ctx context.Context, id string) (*Workspace, error)
}
