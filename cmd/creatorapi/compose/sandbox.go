package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"github.com/creatorapi/creatorapi/application/certificates"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/students"
	wscmd "github.com/creatorapi/creatorapi/application/workspaces/command"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
)

// Sandbox wires the test helpers: a sandbox is an ordinary workspace (its isolation is
// the workspace's), so it needs only the scenarios that run the modules' use cases in it.
func Sandbox() fx.Option {
	return fx.Module("sandbox",
		fx.Provide(
			func(crs courses.Application, stu students.Application, ens enrollments.Application, ord orders.Application,
				lvs livesessions.Application, crt certificates.Application) modulelinks.SandboxScenarios {
				return modulelinks.SandboxScenarios{Courses: crs, Students: stu, Enrollments: ens, Orders: ord, LiveSessions: lvs, Certificates: crt}
			},
			func(s modulelinks.SandboxScenarios) v1.SandboxEvents { return s },
			func(s modulelinks.SandboxScenarios) wscmd.SandboxSeeder { return s },
			apiEndpoints(v1.TestHelperEndpoints),
		),
	)
}
