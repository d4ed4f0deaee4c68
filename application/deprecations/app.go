// Package deprecations is the application service of deprecations: which keys still call
// deprecated routes (counted per key and route), and the owners' e-mails before a sunset.
// The version registry itself is platform.Versions; the public API's port marks the
// responses and records the calls (ports/http/api/v1/deprecations.go).
package deprecations

import (
	"context"

	"github.com/creatorapi/creatorapi/application/deprecations/command"
	"github.com/creatorapi/creatorapi/application/deprecations/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/deprecations"
)

// Application groups the module's use cases and its call counter.
type Application struct {
	Commands Commands
	Queries  Queries
	Calls    *command.CallBuffer // the public API records deprecated calls here
}

// Commands change state.
type Commands struct {
	SendSunsetNotices platform.Handler[struct{}, int] // how many were sent
}

// Queries read state.
type Queries struct {
	ListCalls platform.Handler[string, []deprecations.Call] // by workspace id
}

// New wires the use cases to their ports.
func New(d command.Deps, obs platform.Observer) Application {
	reads := query.Reads{Repo: d.Repo}
	return Application{
		// Not one transaction: each notice is stored, then sent and marked, on its own.
		Commands: Commands{SendSunsetNotices: platform.Query("send sunset notices", obs, d.SendSunsetNotices)},
		Queries:  Queries{ListCalls: platform.Query("list deprecated calls", obs, reads.ListCalls)},
		Calls:    command.NewCallBuffer(d.Repo),
	}
}

// SendNotices runs SendSunsetNotices (the worker's shape).
func (a Application) SendNotices(ctx context.Context) (int, error) {
	return a.Commands.SendSunsetNotices.Handle(ctx, struct{}{})
}
