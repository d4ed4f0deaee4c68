package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// version prints the build: `creatorapi version` (one line) or `--json`.
func (c *CLI) version(args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print {version, revision, goVersion, platform}")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		return usageError("usage: creatorapi version [--json]")
	}
	b := buildinfo.Read()
	if *asJSON {
		return c.printJSON(b)
	}
	fmt.Fprintf(c.stdout, "creatorapi %s (revision %s, %s, %s)\n", b.Version, b.Revision, b.GoVersion, b.Platform)
	return nil
}

// healthcheckTimeout stays under the image's HEALTHCHECK --timeout.
const healthcheckTimeout = 3 * time.Second

// healthcheck asks this instance's /readyz (on CREATORAPI_HTTP_ADDR, over loopback) and
// succeeds on 200: the container's HEALTHCHECK, which has no shell and no curl.
func (c *CLI) healthcheck(args []string) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	target := fs.String("url", "", "URL to ask (default: /readyz on CREATORAPI_HTTP_ADDR)")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		return usageError("usage: creatorapi healthcheck [--url URL]")
	}
	client := http.DefaultClient
	if *target == "" {
		cfg, err := compose.LoadConfig(c.getenv)
		if err != nil {
			return err
		}
		*target = loopbackURL(cfg.HTTPAddr) + "/readyz"
		if cfg.TLS.On() { // the plain listener only redirects: ask the HTTPS one
			*target = "https://" + strings.TrimPrefix(loopbackURL(cfg.TLS.HTTPSAddr), "http://") + "/readyz"
			client = tlsHealthClient(cfg.TLS.Domains)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *target, nil)
	if err != nil {
		return usageError(fmt.Sprintf("healthcheck: %v", err))
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	fmt.Fprintf(c.stdout, "%d %s\n", resp.StatusCode, body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d", *target, resp.StatusCode)
	}
	return nil
}

// loopbackURL turns a listen address into a URL on this host's loopback, with no name
// to resolve (an image FROM scratch may have no /etc/hosts).
func loopbackURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	switch host {
	case "", "0.0.0.0", "localhost":
		host = "127.0.0.1"
	case "::":
		host = "[::1]"
	default:
		if net.ParseIP(host).To4() == nil && net.ParseIP(host) != nil {
			host = "[" + host + "]"
		}
	}
	return "http://" + host + ":" + port
}

// tlsHealthClient asks this instance over loopback HTTPS: the certificate is for the
// public names, not 127.0.0.1, and the check is whether the service answers, so it is not
// verified; the name asked for is the first ACME domain (certmagic picks by it).
func tlsHealthClient(domains []string) *http.Client {
	cfg := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // loopback liveness, not identity
	if len(domains) > 0 {
		cfg.ServerName = domains[0]
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
}
