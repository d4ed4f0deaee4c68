package workspaces

import (
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// SandboxID is the id of live's paired sandbox: derived (org_test_<live ulid>), so that
// opening the sandbox twice (two first test keys at once) collides on the primary key
// instead of making two.
func SandboxID(liveID string) string {
	return kernel.SandboxWorkspacePrefix + strings.TrimPrefix(liveID, IDPrefix+"_")
}

// NewSandbox builds the paired sandbox of live: same name and owner, its own data.
func NewSandbox(live *Workspace, now time.Time) (*Workspace, error) {
	if !live.Livemode() {
		return nil, kernel.Invalid("workspace", "workspace %s is a sandbox; only a live workspace has one", live.ID)
	}
	return &Workspace{ID: SandboxID(live.ID), Name: live.Name, OwnerEmail: live.OwnerEmail,
		SandboxOf: live.ID, CreatedAt: now}, nil
}

// Livemode tells whether w is live (false for a sandbox).
func (w *Workspace) Livemode() bool { return w.SandboxOf == "" && kernel.Livemode(w.ID) }
