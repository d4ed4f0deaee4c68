package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/certificates"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/workspaces"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/ports/cli/demo"
)

// serve runs the service until SIGINT or SIGTERM; with seedDemo it first seeds the demo.
func (c *CLI) serve(seedDemo bool) error {
	cfg, err := compose.LoadConfig(c.getenv)
	if err != nil {
		return err
	}
	opts := []fx.Option{compose.Modules(cfg)}
	if seedDemo {
		opts = append(opts, fx.Provide(newSeeder), fx.Invoke(func(lc fx.Lifecycle, d demoDeps, token compose.AdminToken) {
			lc.Append(fx.Hook{OnStart: func(ctx context.Context) error { return c.runDemo(ctx, cfg, d, string(token)) }})
		}))
	}
	app := fx.New(append(append(opts, compose.Workers(), compose.Listen()), c.observe...)...)
	if err := app.Err(); err != nil {
		return err
	}
	startCtx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := app.Start(startCtx); err != nil {
		return err
	}
	sig := <-app.Wait()
	// Everything stops within the grace: readiness first, then the listeners (in-flight
	// requests finish), the event router's drain, webhook attempts in flight, the database.
	stopped := time.Now()
	stopCtx, stopCancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer stopCancel()
	if err := app.Stop(stopCtx); err != nil {
		return fmt.Errorf("stop within %s: %w", cfg.ShutdownGrace, err)
	}
	fmt.Fprintf(c.stderr, "creatorapi: stopped in %s\n", time.Since(stopped).Round(time.Millisecond))
	if sig.ExitCode != 0 {
		return fmt.Errorf("stopped with exit code %d", sig.ExitCode)
	}
	return nil
}

type demoDeps struct {
	fx.In
	Seeder  demo.Seeder
	Members members.Application
}

// newSeeder hands the demo the applications it drives.
func newSeeder(w workspaces.Application, k keys.Application, co courses.Application, s students.Application,
	e enrollments.Application, o orders.Application, l livesessions.Application, ce certificates.Application,
	m demo.Marker, clock platform.Clock) demo.Seeder {
	return demo.Seeder{Workspaces: w, Keys: k, Courses: co, Students: s, Enrollments: e, Orders: o,
		LiveSessions: l, Certificates: ce, Marker: m, Now: clock.Now}
}

func (c *CLI) runDemo(ctx context.Context, cfg compose.Config, d demoDeps, adminToken string) error {
	res, err := d.Seeder.Run(ctx)
	if err != nil {
		return err
	}
	link, err := d.Members.Commands.IssueLink.Handle(platform.WithActor(ctx, platform.Actor{Name: "demo"}), membercmd.IssueLink{WorkspaceID: res.WorkspaceID})
	if err != nil {
		return err
	}
	api, admin := baseURL(cfg.HTTPAddr), baseURL(cfg.AdminAddr)
	state := "reusing the demo workspace seeded earlier"
	if res.Seeded {
		state = "seeded a new demo workspace"
	}
	fmt.Fprintf(c.stdout, `creatorapi demo: %s

  workspace      %s
  API key        %s   (all six scopes; shown once)
  operator token %s

Dashboard (create, use and revoke keys; the link works once, for 15 minutes):

  %s

Try it (public API; the key carries all six scopes):

  export KEY=%s
  curl -s %s/api/v1/courses -H "Authorization: Bearer $KEY"
  curl -s "%s/api/v1/courses?limit=2" -H "Authorization: Bearer $KEY"
  curl -s %s/api/v1/courses/%s -H "Authorization: Bearer $KEY"
  curl -s "%s/api/v1/students?limit=5" -H "Authorization: Bearer $KEY"
  curl -s -X POST %s/api/v1/students -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
       -d '{"email":"new.lead@example.com","firstName":"New","lastName":"Lead","metadata":{"crm":"hubspot"}}'
  curl -s -X POST %s/api/v1/enrollments -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
       -d '{"studentId":"%s","courseId":"%s"}'
  curl -s "%s/api/v1/orders?status=refunded" -H "Authorization: Bearer $KEY"
  curl -s "%s/api/v1/analytics/summary" -H "Authorization: Bearer $KEY"

Operator API (records what happens in the workspace):

  export ADMIN=%s
  curl -s -X POST %s/internal/v1/workspaces/%s/courses -H "Authorization: Bearer $ADMIN" \
       -H 'Content-Type: application/json' -d '{"title":"My new course"}'
  curl -s -X POST %s/internal/v1/workspaces/%s/courses/%s/modules -H "Authorization: Bearer $ADMIN" \
       -H 'Content-Type: application/json' -d '{"title":"Bonus material"}'

New sign-in link later: creatorapi dashboard link --workspace %s

`, state, res.WorkspaceID, res.Key.Secret, adminToken, link.URL, res.Key.Secret, api, api, api, res.CourseID, api, api, api,
		res.StudentID, res.CourseID, api, api, adminToken, admin, res.WorkspaceID, admin, res.WorkspaceID, res.CourseID, res.WorkspaceID)
	return nil
}

// baseURL turns a listen address into a URL a local curl can use.
func baseURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return "http://" + host + ":" + port
}
