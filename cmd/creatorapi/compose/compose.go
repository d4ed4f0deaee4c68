// Package compose is the composition root: one fx.Module per bounded context wiring
// adapters to application ports and ports to handlers. It is the only package (with
// tests) that sees every layer.
package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/config"
)

// Config is the service's configuration (cmd/creatorapi/config reads and checks it).
type Config = config.Config

// LoadConfig reads the configuration through getenv (os.Getenv in production); whether
// spans are exported is the tracing adapter's reading of the standard OTEL_* variables.
func LoadConfig(getenv func(string) string) (Config, error) {
	cfg, err := config.Load(getenv)
	cfg.TraceExport = observe.Exporting(getenv)
	return cfg, err
}

// Modules is the whole service without listeners: what the CLI and tests start.
func Modules(cfg Config) fx.Option {
	return fx.Options(
		fx.Supply(cfg),
		fx.NopLogger,
		Platform(),
		Workspaces(),
		Keys(),
		Deprecations(),
		Courses(),
		Students(),
		Enrollments(),
		Orders(),
		LiveSessions(),
		Certificates(),
		Sandbox(),
		Analytics(),
		RateLimits(),
		Webhooks(),
		Pacing(),
		Events(),
		Feed(),
		Dashboard(),
		HTTP(),
		Probes(),
		Maintenance(),
	)
}

// Service is the whole service with its listeners: what serve and demo run.
func Service(cfg Config) fx.Option {
	return fx.Options(Modules(cfg), Workers(), Listen())
}
