// Package certificates is the application service of course certificates.
package certificates

import (
	"github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/certificates/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
}

// Commands change state.
type Commands struct {
	IssueCertificate platform.Handler[command.IssueCertificate, platform.Upsert[query.Certificate]]
}

// New wires the use cases to their ports, decorated in the one handler shape.
func New(d command.Deps) Application {
	return Application{Commands: Commands{
		IssueCertificate: platform.Command("issue certificate", d.Tx, d.Observer, d.IssueCertificate),
	}}
}
