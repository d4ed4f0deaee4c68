// Package certificates is the application service of course certificates.
package certificates

import "github.com/creatorapi/creatorapi/application/certificates/command"

// Application groups the module's use cases.
type Application struct {
	Commands Commands
}

// Commands change state.
type Commands struct {
	IssueCertificate command.IssueCertificateHandler
}

// New wires the use cases to their ports.
func New(d command.Deps) Application {
	return Application{Commands: Commands{IssueCertificate: command.NewIssueCertificateHandler(d)}}
}
