package tlscerts

import (
	"crypto/tls"
	"net/http"

	"github.com/creatorapi/creatorapi/adapters/background"
)

// Source is what the HTTPS listener takes from a certificate provider.
type Source struct {
	GetCertificate func(*tls.ClientHelloInfo) (*tls.Certificate, error)
	// ACME: the listener offers acme-tls/1 and GetCertificate answers TLS-ALPN-01.
	ACME bool
	// HTTPChallenge answers an ACME HTTP-01 request on the plain-HTTP listener and
	// reports whether it did; nil without ACME.
	HTTPChallenge func(w http.ResponseWriter, r *http.Request) bool
	// Worker keeps the certificates current (file watcher, renewals); nil for none.
	Worker background.Worker
}

// FromFiles is the Source of a certificate and key in files.
func FromFiles(f *Files) *Source {
	return &Source{GetCertificate: f.GetCertificate, Worker: f.Watcher()}
}
