package kernel

import "strings"

// SandboxWorkspacePrefix starts the id of every sandbox workspace (org_test_...).
// Generated ids are org_<lowercase ULID>, and a ULID has no underscore, so no live
// workspace id starts with it: livemode is a property of the id alone, known to every
// module (keys, events, resources) without a lookup.
const SandboxWorkspacePrefix = "org_test_"

// Livemode tells whether workspaceID is a live workspace (false for a sandbox).
func Livemode(workspaceID string) bool {
	return !strings.HasPrefix(workspaceID, SandboxWorkspacePrefix)
}
