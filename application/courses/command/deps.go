package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
)

// Deps are the ports every course command uses.
type Deps struct {
	platform.Kit // Tx, Publisher, IDs, Clock, Observer
	Repo         courses.Repository
	ReadModel    query.ReadModel
	Catalog      query.Catalog // the published read port (other modules' view)
	Workspaces   platform.WorkspaceDirectory
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	return platform.RequireWorkspace(ctx, d.Workspaces, workspaceID)
}

// courses takes courses through their life cycle (publish, archive), each step
// announced by its event with the course and its curriculum.
func (d Deps) courses() platform.Lifecycle[*courses.Course, query.CourseDetail] {
	return platform.Lifecycle[*courses.Course, query.CourseDetail]{Kit: d.Kit, Store: d.Repo, View: query.FromDomain}
}
