package compose

import (
	"log/slog"

	"github.com/creatorapi/creatorapi/adapters/sql/tlsstorage"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/tlscerts"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// newTLSSource opens the HTTPS listener's certificates (CREATORAPI_TLS); nil when off.
func newTLSSource(cfg Config, db *sqldb.DB, logger *slog.Logger) (*tlscerts.Source, error) {
	switch t := cfg.TLS; t.Mode {
	case web.TLSFiles:
		f, err := tlscerts.NewFiles(t.CertFile, t.KeyFile, logger)
		if err != nil {
			return nil, err
		}
		return tlscerts.FromFiles(f), nil
	case web.TLSACME:
		return tlscerts.NewACME(tlscerts.ACMEOptions{Domains: t.Domains, Email: t.Email, Directory: t.Directory,
			CARoot: t.CARoot, HTTPAddr: cfg.HTTPAddr, HTTPSAddr: t.HTTPSAddr, LogLevel: cfg.LogLevel}, tlsstorage.New(db))
	default:
		return nil, nil
	}
}
