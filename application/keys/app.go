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
	reads := query.Reads{Repo: d.Repo, Pages: d.Pages, Views: views, Usage: d.Usage, Requests: d.Requests, Clock: d.Clock}
	return Application{
		Commands: Commands{
			CreateKey: platform.Command("create key", d.Tx, d.Observer, d.Deps.CreateKey),
			RevokeKey: platform.Command("revoke key", d.Tx, d.Observer, d.Deps.RevokeKey),
		},
		Queries: Queries{
			Authenticate:   platform.Query("authenticate", d.Observer, reads.Authenticate),
			ListKeys:       platform.Query("list keys", d.Observer, reads.ListKeys),
			KeyPage:        platform.Query("key page", d.Observer, reads.KeyPage),
			GetKey:         platform.Query("get key", d.Observer, reads.GetKey),
			KeyCounts:      platform.Query("key counts", d.Observer, reads.KeyCounts),
			RequestsPerDay: platform.Query("requests per day", d.Observer, reads.RequestsPerDay),
		},
	}
}
