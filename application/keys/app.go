// Package keys is the application service of API keys: issuing, revoking and
// authenticating the bearer tokens of the public API.
package keys

import (
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	CreateKey platform.Handler[command.CreateKey, command.CreatedKey]
	RevokeKey platform.Handler[command.RevokeKey, query.Key]
}

// Queries read state.
type Queries struct {
	Authenticate   platform.Handler[string, query.Principal] // by bearer token
	ListKeys       platform.Handler[string, []query.Key]     // by workspace id
	KeyPage        platform.Handler[query.KeyPage, platform.Page[query.Key]]
	GetKey         platform.Handler[query.GetKey, query.Key]
	KeyCounts      platform.Handler[string, query.KeyCounts] // by workspace id
	RequestsPerDay platform.Handler[query.RequestsPerDay, []query.RequestDay]
}

// Deps are the ports the module needs.
type Deps struct {
	command.Deps
	Pages    query.KeyPages
	Usage    query.UsageRecorder
	Requests query.RequestCounts
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d Deps) Application {
	views := query.NewViews(d.Usage, d.Clock)
	return Application{
		Commands: Commands{
			CreateKey: platform.Command("create key", d.Tx, d.Observer, d.Deps.CreateKey),
			RevokeKey: platform.Command("revoke key", d.Tx, d.Observer, d.Deps.RevokeKey),
		},
		Queries: Queries{
			Authenticate:   platform.Query("authenticate", d.Observer, query.NewAuthenticateHandler(d.Repo, d.Usage, d.Clock).Handle),
			ListKeys:       platform.Query("list keys", d.Observer, query.NewListKeysHandler(d.Repo, views).Handle),
			KeyPage:        platform.Query("key page", d.Observer, query.NewKeyPageHandler(d.Pages, views).Handle),
			GetKey:         platform.Query("get key", d.Observer, query.NewGetKeyHandler(d.Repo, views).Handle),
			KeyCounts:      platform.Query("key counts", d.Observer, query.NewKeyCountsHandler(d.Pages, d.Clock).Handle),
			RequestsPerDay: platform.Query("requests per day", d.Observer, query.NewRequestsPerDayHandler(d.Requests).Handle),
		},
	}
}
