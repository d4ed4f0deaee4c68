package web

import (
	"crypto/tls"
	"net"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/valyala/fasthttp"
)

// HSTS is sent on every HTTPS response (two years, Mozilla's recommendation); never on
// plain HTTP, where browsers ignore it.
const HSTS = "max-age=63072000"

// ALPNACME is the TLS-ALPN-01 challenge protocol (RFC 8737).
const ALPNACME = "acme-tls/1"

// ServerTLS is the HTTPS listener's configuration: TLS 1.2 at least with Mozilla's
// intermediate cipher suites (TLS 1.3's are fixed by Go), and ALPN http/1.1 only:
// fasthttp speaks no HTTP/2, so offering h2 would break every client that picks it.
// acme adds acme-tls/1 for TLS-ALPN-01 challenges (getCert then answers them).
func ServerTLS(getCert func(*tls.ClientHelloInfo) (*tls.Certificate, error), acme bool) *tls.Config {
	protos := []string{"http/1.1"}
	if acme {
		protos = append(protos, ALPNACME)
	}
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		CipherSuites: []uint16{
			tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
			tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
		},
		NextProtos:     protos,
		GetCertificate: getCert,
	}
}

// TLSListener wraps ln so that its connections speak TLS with cfg.
func TLSListener(cfg *tls.Config) func(net.Listener) net.Listener {
	return func(ln net.Listener) net.Listener { return tls.NewListener(ln, cfg) }
}

// withHSTS adds Strict-Transport-Security to every response of next, including those
// written outside fiber's routes (unknown methods, framing errors).
func withHSTS(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		next(ctx)
		ctx.Response.Header.Set(fiber.HeaderStrictTransportSecurity, HSTS)
	}
}

// NewRedirectApp is the plain-HTTP listener's app when TLS is on: ACME HTTP-01
// challenges go to challenge (when set: it reports whether it answered), everything else
// is redirected with 308 (method and body kept) to the same host and path over https,
// on httpsPort unless that is 443.
func NewRedirectApp(httpsPort string, challenge func(w http.ResponseWriter, r *http.Request) bool, app *fiber.App) *fiber.App {
	if challenge != nil {
		app.Get("/.well-known/acme-challenge/*", adaptor.HTTPHandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !challenge(w, r) {
				http.NotFound(w, r) // no challenge of ours pending under this token
			}
		}))
	}
	app.Use(func(c *fiber.Ctx) error {
		// The Host header itself: fiber's Hostname would prefer X-Forwarded-Host, which any
		// client writes (a cached redirect to another site).
		host := string(c.Request().Host())
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if host == "" || strings.ContainsAny(host, "/\\@ ") {
			return &Problem{Status: fiber.StatusBadRequest, Code: CodeInvalidRequest, Param: "Host", Message: "a Host header naming this service is required"}
		}
		if strings.Contains(host, ":") { // an IPv6 literal
			host = "[" + strings.Trim(host, "[]") + "]"
		}
		if httpsPort != "443" {
			host += ":" + httpsPort
		}
		return c.Redirect("https://"+host+string(c.Request().RequestURI()), fiber.StatusPermanentRedirect)
	})
	return app
}
