package compose

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/platform"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
)

// Pacing wires the API's yield to the event pipeline (CREATORAPI_EVENTS_MAX_LAG): the
// webhook dispatcher reports its lag (the fan-out runs in the publishing transaction and
// cannot lag), a guard of the public API paces the requests that change data while it is
// over the target.
func Pacing() fx.Option {
	return fx.Module("pacing",
		fx.Provide(
			// Wall time: the lags are those of the real clock, whatever clock the use cases run on.
			func(cfg Config) *platform.Pacer { return platform.NewPacer(cfg.EventsMaxLag, time.Now) },
			fx.Annotate(func(p *platform.Pacer) fiber.Handler { return v1.Pace(p) }, fx.ResultTags(`group:"api_guards"`)),
		),
		fx.Invoke(func(d *adapterwebhooks.Dispatcher, p *platform.Pacer) { d.ReportLagTo(p) }),
	)
}
