// Package command creates, edits and deletes students.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/students"
)

// Deps are the ports every student command uses.
type Deps struct {
	platform.Kit // Tx, Publisher, IDs, Clock, Observer
	Repo         students.Repository
	ReadModel    query.ReadModel
	History      query.History // the enrollments a student's page and events embed
	Workspaces   platform.WorkspaceDirectory
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	return platform.RequireWorkspace(ctx, d.Workspaces, workspaceID)
}
