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
	receiver := "https://example.com/webhooks" // the SSRF guard refuses this machine's addresses by default
	if cfg.WebhookAllowPrivate {
		receiver = "http://127.0.0.1:9000/webhooks"
	}
	cli, err := c.demoCLI(cfg)
	if err != nil {
		return err
	}
	return demo.Guide{Result: res, API: baseURL(cfg.HTTPAddr), Admin: baseURL(cfg.AdminAddr), AdminToken: adminToken,
		SignInURL: link.URL, Dashboard: strings.TrimSuffix(cfg.PublicURL, "/") + "/dashboard", CLI: cli,
		ReceiverURL: receiver, AllowPrivate: cfg.WebhookAllowPrivate}.Write(c.stdout)
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
