package web

import (
	"fmt"
	"net"
	"strings"
)

// TLS modes (CREATORAPI_TLS).
const (
	TLSOff   = "off"   // plain HTTP; a proxy in front terminates TLS
	TLSFiles = "files" // a certificate and key from files, reloaded on SIGHUP and on change
	TLSACME  = "acme"  // certificates ordered from an ACME CA and kept in the database
)

// LetsEncrypt is the default ACME directory (CREATORAPI_ACME_DIRECTORY).
const LetsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"

// TLSSettings are the CREATORAPI_TLS* and CREATORAPI_ACME_* settings.
type TLSSettings struct {
	Mode      string   // CREATORAPI_TLS: off (default), files, acme
	HTTPSAddr string   // CREATORAPI_HTTPS_ADDR, default :8443 (the image runs as a non-root user)
	CertFile  string   // CREATORAPI_TLS_CERT_FILE (files)
	KeyFile   string   // CREATORAPI_TLS_KEY_FILE (files)
	Domains   []string // CREATORAPI_TLS_DOMAINS (acme), a comma list
	Email     string   // CREATORAPI_TLS_EMAIL (acme), the ACME account's contact
	Directory string   // CREATORAPI_ACME_DIRECTORY, default Let's Encrypt
	CARoot    string   // CREATORAPI_ACME_CA_ROOT: a PEM file to trust for the ACME server
}

// On reports whether the service terminates TLS itself.
func (s TLSSettings) On() bool { return s.Mode == TLSFiles || s.Mode == TLSACME }

// LoadTLSSettings reads and checks the TLS settings.
func LoadTLSSettings(get func(name, def string) string) (TLSSettings, error) {
	s := TLSSettings{
		Mode:      strings.ToLower(get("CREATORAPI_TLS", TLSOff)),
		HTTPSAddr: get("CREATORAPI_HTTPS_ADDR", ":8443"),
		CertFile:  get("CREATORAPI_TLS_CERT_FILE", ""),
		KeyFile:   get("CREATORAPI_TLS_KEY_FILE", ""),
		Email:     get("CREATORAPI_TLS_EMAIL", ""),
		Directory: get("CREATORAPI_ACME_DIRECTORY", LetsEncrypt),
		CARoot:    get("CREATORAPI_ACME_CA_ROOT", ""),
	}
	for _, d := range strings.Split(get("CREATORAPI_TLS_DOMAINS", ""), ",") {
		if d = strings.ToLower(strings.TrimSpace(d)); d != "" {
			s.Domains = append(s.Domains, d)
		}
	}
	if _, _, err := net.SplitHostPort(s.HTTPSAddr); err != nil {
		return s, fmt.Errorf("CREATORAPI_HTTPS_ADDR must be host:port such as :8443: %w", err)
	}
	switch s.Mode {
	case TLSOff:
	case TLSFiles:
		if s.CertFile == "" || s.KeyFile == "" {
			return s, fmt.Errorf("CREATORAPI_TLS=files needs CREATORAPI_TLS_CERT_FILE and CREATORAPI_TLS_KEY_FILE")
		}
	case TLSACME:
		if len(s.Domains) == 0 {
			return s, fmt.Errorf("CREATORAPI_TLS=acme needs CREATORAPI_TLS_DOMAINS (a comma list of host names)")
		}
		if !strings.HasPrefix(s.Directory, "https://") {
			return s, fmt.Errorf("CREATORAPI_ACME_DIRECTORY must be an https URL")
		}
	default:
		return s, fmt.Errorf("CREATORAPI_TLS must be off, files or acme")
	}
	return s, nil
}
