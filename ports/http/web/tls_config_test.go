package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func settingsFrom(m map[string]string) func(string, string) string {
	return func(k, def string) string {
		if v, ok := m[k]; ok {
			return v
		}
		return def
	}
}

func TestLoadTLSSettings(t *testing.T) {
	s, err := LoadTLSSettings(settingsFrom(nil))
	if err != nil || s.On() || s.HTTPSAddr != ":8443" || s.Directory != LetsEncrypt {
		t.Fatalf("defaults: %+v %v", s, err)
	}
	refused := []map[string]string{
		{"CREATORAPI_TLS": "on"},
		{"CREATORAPI_TLS": "files", "CREATORAPI_TLS_CERT_FILE": "/c"},
		{"CREATORAPI_TLS": "acme"},
		{"CREATORAPI_TLS": "acme", "CREATORAPI_TLS_DOMAINS": "a.example", "CREATORAPI_ACME_DIRECTORY": "http://ca/dir"},
		{"CREATORAPI_HTTPS_ADDR": "8443"},
	}
	for _, m := range refused {
		if _, err := LoadTLSSettings(settingsFrom(m)); err == nil {
			t.Errorf("%v accepted", m)
		}
	}
	s, err = LoadTLSSettings(settingsFrom(map[string]string{"CREATORAPI_TLS": "ACME", "CREATORAPI_TLS_DOMAINS": " A.example, b.example ,"}))
	if err != nil || s.Mode != TLSACME || strings.Join(s.Domains, "|") != "a.example|b.example" {
		t.Fatalf("acme: %+v %v", s, err)
	}
}

// With TLS on, the public URL (and so the dashboard's Secure cookies) is https.
func TestPublicURLFollowsTLS(t *testing.T) {
	on := TLSSettings{Mode: TLSFiles, HTTPSAddr: ":9443"}
	if u, err := PublicURLFor("", ":8080", on); err != nil || u != "https://localhost:9443" {
		t.Fatalf("default with TLS: %q %v", u, err)
	}
	if _, err := PublicURLFor("http://api.example.com", ":8080", on); err == nil {
		t.Fatal("an http public URL accepted with TLS on")
	}
	if u, err := PublicURLFor("", ":8080", TLSSettings{Mode: TLSOff}); err != nil || u != "http://localhost:8080" {
		t.Fatalf("default without TLS: %q %v", u, err)
	}
}

func TestServerTLSNeverOffersH2(t *testing.T) {
	for _, acme := range []bool{false, true} {
		cfg := ServerTLS(nil, acme)
		want := "http/1.1"
		if acme {
			want += ",acme-tls/1"
		}
		if got := strings.Join(cfg.NextProtos, ","); got != want {
			t.Errorf("acme=%v: ALPN %s, want %s", acme, got, want)
		}
	}
}

// The redirect keeps host, path and query, adds the HTTPS port unless 443, and ignores
// X-Forwarded-Host.
func TestRedirectToHTTPS(t *testing.T) {
	cases := []struct{ port, host, target, forwarded, want string }{
		{"8443", "api.example.com:8080", "/api/v1/courses?limit=2", "", "https://api.example.com:8443/api/v1/courses?limit=2"},
		{"443", "api.example.com", "/dashboard/", "evil.example", "https://api.example.com/dashboard/"},
		{"443", "[2001:db8::1]:80", "/", "", "https://[2001:db8::1]/"},
	}
	for _, c := range cases {
		app := NewRedirectApp(c.port, nil, NewApp("t", slog.New(slog.NewTextHandler(io.Discard, nil))))
		req := httptest.NewRequest(http.MethodPost, "http://"+c.host+c.target, nil)
		if c.forwarded != "" {
			req.Header.Set("X-Forwarded-Host", c.forwarded)
		}
		resp, err := app.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != c.want || resp.Header.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s%s: %d %q, want 308 %q without HSTS", c.host, c.target, resp.StatusCode, resp.Header.Get("Location"), c.want)
		}
	}
}
