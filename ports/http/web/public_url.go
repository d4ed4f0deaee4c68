package web

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// PublicURL validates CREATORAPI_PUBLIC_URL (an http or https origin, optionally with a
// path) or derives http://localhost:<port> from the public listener's address.
func PublicURL(raw, httpAddr string) (string, error) {
	if raw == "" {
		_, port, err := net.SplitHostPort(httpAddr)
		if err != nil || port == "" {
			port = "8080"
		}
		return "http://localhost:" + port, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("CREATORAPI_PUBLIC_URL must be an http(s) URL such as https://api.example.com")
	}
	return strings.TrimRight(raw, "/"), nil
}

// PublicURLFor is PublicURL knowing the TLS settings: with TLS on, the default is
// https://localhost:<port of the HTTPS listener> and an http URL is refused (links and
// the dashboard's Secure cookies follow the public URL).
func PublicURLFor(raw, httpAddr string, t TLSSettings) (string, error) {
	if !t.On() {
		return PublicURL(raw, httpAddr)
	}
	if raw == "" {
		_, port, _ := net.SplitHostPort(t.HTTPSAddr)
		return "https://localhost:" + port, nil
	}
	u, err := PublicURL(raw, httpAddr)
	if err == nil && !strings.HasPrefix(u, "https://") {
		err = fmt.Errorf("CREATORAPI_PUBLIC_URL must be https when CREATORAPI_TLS is %s", t.Mode)
	}
	return u, err
}
