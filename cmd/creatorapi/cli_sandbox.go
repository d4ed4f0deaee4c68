package main

import (
	"context"

	"github.com/creatorapi/creatorapi/application/workspaces"
	wscmd "github.com/creatorapi/creatorapi/application/workspaces/command"
)

// targetWorkspace is ws, or with --test its paired sandbox, opened (and seeded by the
// server on its first test request) if this is its first use.
func targetWorkspace(ctx context.Context, app workspaces.Application, ws string, test bool) (string, error) {
	if !test {
		return ws, nil
	}
	sb, err := app.Commands.OpenSandbox.Handle(ctx, wscmd.OpenSandbox{WorkspaceID: ws})
	if err != nil {
		return "", err
	}
	return sb.ID, nil
}
