package testenv

import (
	"context"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/clock"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// AdminToken is the operator token of every test environment.
const AdminToken = "test-admin-token-0123456789abcdef"

// ServicePartitions is the event partition count of the services Start boots (the
// feature tests): one, on both databases. Partitioned delivery is the event suites'
// subject (tests/events_*_test.go start with Config, whose count is the production
// default: 4 on PostgreSQL); a test that needs more here decorates compose.Config.
// One partition also keeps each service's start-up and idle polling small (twelve leased
// subscribers instead of three). (The 26 s wait four partitions once showed in the
// analytics projection test was a pipeline bug, since fixed: docs/events.md, "A conflicted
// batch stalls every consumer".)
const ServicePartitions = 1

// Epoch is where every test clock starts: a Saturday, 10:00:00 UTC.
var Epoch = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// Env is a started service: the real fx graph with only the clock swapped.
type Env struct {
	Config   compose.Config
	Clock    *clock.Manual
	DB       *sqldb.DB
	Public   compose.PublicApp
	Operator compose.OperatorApp
	app      *fx.App
	router   *router.Router
	pos      *router.Positions
	wake     *wakeup.Wakeup      // WaitForConsumers wakes every consumer
	members  members.Application // MailedLinks answers the sign-in outbox first
	release  func()              // gives back the instance's PostgreSQL connections
}

// Start boots the service on databaseURL; extra options may swap more adapters
// (fx.Replace / fx.Decorate) or populate handles (fx.Populate). Stopped at cleanup.
// A top-level test that calls it runs in parallel unless it called Serial first.
func Start(t testing.TB, databaseURL string, extra ...fx.Option) *Env {
	t.Helper()
	if !isSerial(t) {
		parallelTopLevel(t)
	}
	env := &Env{Clock: clock.NewManual(Epoch)}
	env.Config = Config(t, databaseURL)
	env.Config.EventsPartitions = ServicePartitions
	env.release = reserveStarted(t, databaseURL)
	opts := []fx.Option{
		compose.Modules(env.Config),
		compose.Workers(), // the event router runs, as in serve
		fx.Replace(fx.Annotate(env.Clock, fx.As(new(platform.Clock)))),
		fx.Populate(&env.DB, &env.Public, &env.Operator, &env.router, &env.pos, &env.wake, &env.members),
	}
	env.app = fx.New(append(opts, extra...)...)
	if err := env.app.Err(); err != nil {
		env.release()
		t.Fatalf("build service: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := env.app.Start(ctx); err != nil {
		env.release()
		t.Fatalf("start service: %v", err)
	}
	t.Cleanup(func() { env.Stop(t) })
	return env
}

// Stop stops the service (draining its consumers); later calls do nothing.
func (e *Env) Stop(t testing.TB) {
	t.Helper()
	if e.app == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.app.Stop(ctx); err != nil {
		t.Errorf("stop service: %v", err)
	}
	e.release()
	e.app = nil
}

// Config is the configuration of a test service: its own data folder, fixed secrets.
func Config(t testing.TB, databaseURL string) compose.Config {
	cfg, err := compose.LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatalf("default config: %v", err)
	}
	cfg.DataDir = t.TempDir()
	cfg.DatabaseURL = databaseURL
	cfg.AdminToken = AdminToken
	cfg.SecretKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	cfg.LogLevel = "error"
	// Tests run on a manual clock that jumps hours ahead: the lags the pipeline would
	// report against wall time mean nothing there. Pacing tests turn it on.
	cfg.EventsMaxLag = 0
	return cfg
}
