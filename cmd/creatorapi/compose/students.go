package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/command"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Students wires a workspace's students.
func Students() fx.Option {
	return fx.Module("students",
		fx.Provide(
			sqlstore.NewStudents,
			func(db *sqldb.DB, crs courses.Application, ens enrollments.Application) *sqlstore.StudentReads {
				return sqlstore.NewStudentReads(db, studentCourseLessons{app: crs}, studentEnrollmentHistory{app: ens})
			},
			func(kit platform.Kit, repo *sqlstore.Students, rm *sqlstore.StudentReads, ws platform.WorkspaceDirectory) students.Application {
				return students.New(command.Deps{Kit: kit, Repo: repo, ReadModel: rm, Workspaces: ws})
			},
			apiEndpoints(v1.StudentEndpoints),
			operatorRoutes(operator.StudentRoutes),
		),
	)
}
