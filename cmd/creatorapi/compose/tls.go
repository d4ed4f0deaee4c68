package compose

import (
	"log/slog"

	"github.com/creatorapi/creatorapi/adapters/tlscerts"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// newTLSSource opens the HTTPS listener's certificates (CREATORAPI_TLS); nil when off.
func newTLSSource(cfg Config, logger *slog.Logger) (*tlscerts.Source, error) {
	switch cfg.TLS.Mode {
	case web.TLSFiles:
		f, err := tlscerts.NewFiles(cfg.TLS.CertFile, cfg.TLS.KeyFile, logger)
		if err != nil {
			return nil, err
		}
		return tlscerts.FromFiles(f), nil
	default:
		return nil, nil
	}
}
