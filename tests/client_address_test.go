package tests

import (
	"io/fs"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/ports/http/web"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// TestFailedAuthBudgetsFollowTheForwardedClient runs the service behind a trusted proxy
// (the in-memory test connection's peer, 0.0.0.0) with CREATORAPI_CLIENT_IP=x-forwarded-for:
// the failed-auth budget is the forwarded client's, another client behind the same proxy
// keeps its own, and a blocked client cannot buy a fresh budget by forging a left-most entry.
func TestFailedAuthBudgetsFollowTheForwardedClient(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL, fx.Decorate(func(c compose.Config) compose.Config {
			c.ClientAddresses = web.ClientAddresses{Mode: web.ClientIPForwardedFor, Trusted: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/32")}}
			return c
		}))
		env.Clock.Set(at(10, 0, 30))
		first := env.API("svc_not_a_key").WithHeader("X-Forwarded-For", "198.51.100.1")
		for i := 1; i <= 60; i++ {
			first.Get(t, coursesPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
		}
		first.Get(t, coursesPath).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
		forged := env.API("svc_not_a_key").WithHeader("X-Forwarded-For", "203.0.113.77, 198.51.100.1")
		forged.Get(t, coursesPath).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
		other := env.API("svc_not_a_key").WithHeader("X-Forwarded-For", "198.51.100.2")
		if r := other.Get(t, coursesPath).ExpectError(t, http.StatusUnauthorized, "unauthorized"); rateOf(t, r).Remaining != 59 {
			t.Fatalf("another client behind the proxy: %+v, want its own budget (59 left)", rateOf(t, r))
		}
	})
}

// TestClientAddressHasOneSource keeps every use of the client's address on web.ClientIP:
// no port code asks fiber (c.IP, c.IPs, nor Hostname/Protocol/BaseURL/Secure) or configures
// fiber's ProxyHeader, which would take them from headers any client can write.
func TestClientAddressHasOneSource(t *testing.T) {
	err := filepath.WalkDir("../ports", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// Hostname, Protocol, BaseURL and Secure read X-Forwarded-Host/-Proto from anyone too.
		for _, banned := range []string{".IP()", ".IPs()", "ProxyHeader", "EnableTrustedProxyCheck", ".Hostname()", ".Protocol()", ".BaseURL()", ".Secure()"} {
			if strings.Contains(string(src), banned) && !strings.HasSuffix(path, "web/clientip.go") {
				t.Errorf("%s uses %s: take the address from web.ClientIP", path, banned)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
