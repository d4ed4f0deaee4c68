package tlscerts

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/caddyserver/certmagic"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// ACMEOptions are the acme mode's settings.
type ACMEOptions struct {
	Domains   []string // CREATORAPI_TLS_DOMAINS
	Email     string   // CREATORAPI_TLS_EMAIL
	Directory string   // CREATORAPI_ACME_DIRECTORY
	CARoot    string   // CREATORAPI_ACME_CA_ROOT: a PEM file trusted for the directory
	// HTTPAddr and HTTPSAddr are the service's listeners: the challenges are answered
	// there (HTTP-01 by the plain listener, TLS-ALPN-01 by the HTTPS one), never on
	// listeners of certmagic's own.
	HTTPAddr, HTTPSAddr string
	// DisableHTTP / DisableTLSALPN leave one challenge type out (the tests prove each).
	DisableHTTP, DisableTLSALPN bool
	// LogLevel is CREATORAPI_LOG_LEVEL: certmagic logs through zap, as JSON on stderr.
	LogLevel string
}

// NewACME manages certificates for the domains with certmagic, keeping them, the ACME
// account and the issuance locks in storage (the service's database: tlsstorage), so that
// instances sharing it order once and serve the same certificate. certmagic's cache
// renews in the background; the Source's worker starts managing (after the listeners,
// which answer the challenges) and stops the cache.
func NewACME(o ACMEOptions, storage certmagic.Storage) (*Source, error) {
	zcfg := zap.NewProductionConfig()
	if level, err := zapcore.ParseLevel(o.LogLevel); err == nil {
		zcfg.Level = zap.NewAtomicLevelAt(level)
	}
	logger, err := zcfg.Build()
	if err != nil {
		return nil, fmt.Errorf("ACME logger: %w", err)
	}
	var cfg *certmagic.Config
	cache := certmagic.NewCache(certmagic.CacheOptions{
		GetConfigForCert: func(certmagic.Certificate) (*certmagic.Config, error) { return cfg, nil },
		Logger:           logger,
	})
	cfg = certmagic.New(cache, certmagic.Config{Storage: storage, Logger: logger})
	issuer := certmagic.ACMEIssuer{CA: o.Directory, Email: o.Email, Agreed: true, Logger: logger,
		DisableHTTPChallenge: o.DisableHTTP, DisableTLSALPNChallenge: o.DisableTLSALPN}
	if issuer.AltHTTPPort, err = port(o.HTTPAddr); err != nil {
		return nil, err
	}
	if issuer.AltTLSALPNPort, err = port(o.HTTPSAddr); err != nil {
		return nil, err
	}
	if o.CARoot != "" {
		pem, err := os.ReadFile(o.CARoot)
		if err != nil {
			return nil, fmt.Errorf("CREATORAPI_ACME_CA_ROOT: %w", err)
		}
		issuer.TrustedRoots = x509.NewCertPool()
		if !issuer.TrustedRoots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CREATORAPI_ACME_CA_ROOT %s holds no PEM certificate", o.CARoot)
		}
	}
	acme := certmagic.NewACMEIssuer(cfg, issuer)
	cfg.Issuers = []certmagic.Issuer{acme}
	return &Source{
		GetCertificate: cfg.GetCertificate, // answers acme-tls/1 hellos too
		ACME:           true,
		HTTPChallenge:  acme.HandleHTTPChallenge,
		Worker:         &acmeWorker{cfg: cfg, cache: cache, domains: o.Domains},
	}, nil
}

func port(addr string) (int, error) {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, fmt.Errorf("listener address %q: %w", addr, err)
	}
	return strconv.Atoi(p)
}

// acmeWorker starts managing at Start (ordering in the background: the service serves
// meanwhile, handshakes for the domains fail until the certificate is there) and stops
// certmagic's maintenance at Stop.
type acmeWorker struct {
	cfg     *certmagic.Config
	cache   *certmagic.Cache
	domains []string
	cancel  context.CancelFunc
}

func (w *acmeWorker) Start(context.Context) error {
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	return w.cfg.ManageAsync(ctx, w.domains)
}

func (w *acmeWorker) Stop(context.Context) error {
	if w.cancel != nil {
		w.cancel()
	}
	w.cache.Stop()
	return nil
}
