package compose

import "go.uber.org/fx"

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
