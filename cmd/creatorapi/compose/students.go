package compose

import (
	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"go.uber.org/fx"

	sqlstudents "github.com/creatorapi/creatorapi/adapters/sql/students"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/command"
	"github.com/creatorapi/creatorapi/application/students/query"
	domainstudents "github.com/creatorapi/creatorapi/domain/students"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Students wires a workspace's students. Its adapters are provided as the module's
// ports (fx.As), so a test swaps any of them with one fx.Replace (tests/testenv:
// MemoryStudents). A student's page embeds its enrollments: the enrollments and courses
// modules' published queries make its History (adapters/modulelinks). Other modules reach students through the Directory
// (adapters/modulelinks), never through these ports or the students table.
func Students() fx.Option {
	return fx.Module("students",
		fx.Provide(
			fx.Annotate(sqlstudents.NewRepository, fx.As(new(domainstudents.Repository))),
			fx.Annotate(sqlstudents.NewReads, fx.As(new(query.ReadModel)), fx.As(new(query.Published))),
			func(kit platform.Kit, repo domainstudents.Repository, rm query.ReadModel, ws platform.WorkspaceDirectory,
				crs courses.Application, ens enrollments.Application) students.Application {
				return students.New(command.Deps{Kit: kit, Repo: repo, ReadModel: rm, Workspaces: ws, History: query.History{
					Enrollments: modulelinks.StudentEnrollmentHistory{App: ens}, Lessons: modulelinks.StudentCourseLessons{App: crs},
				}})
			},
			func(kit platform.Kit, repo domainstudents.Repository, published query.Published) students.Directory {
				return students.NewDirectory(command.Deps{Kit: kit, Repo: repo}, published)
			},
			func(d students.Directory) modulelinks.StudentDirectory { return modulelinks.StudentDirectory{Dir: d} },
			apiEndpoints(v1.StudentEndpoints),
			apiEndpoints(v1.StudentSyncEndpoints),
			apiEndpoints(v1.StudentBatchEndpoints),
			operatorRoutes(operator.StudentRoutes),
		),
	)
}
