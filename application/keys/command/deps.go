// Package command issues and revokes API keys.
package command

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// Deps are the ports of the key commands.
type Deps struct {
	platform.Kit // Tx, IDs, Clock, Observer (keys publish no events)
	Repo         keys.Repository
	Workspaces   platform.WorkspaceDirectory
	Audit        platform.AuditTrail
}
