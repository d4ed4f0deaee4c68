package config

import (
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

func TestHTTPLimitsDefaultAndOverride(t *testing.T) {
	cfg, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPLimits != web.DefaultLimits() || cfg.HTTPLimits.MaxConnsPerIP <= 0 || cfg.HTTPLimits.MaxConns <= 0 ||
		cfg.HTTPLimits.IdleTimeout <= 0 || cfg.HTTPLimits.ReadTimeout <= 0 || cfg.HTTPLimits.MaxHeaderBytes <= 0 {
		t.Fatalf("defaults %+v", cfg.HTTPLimits)
	}
	cfg, err = Load(env(map[string]string{
		"CREATORAPI_HTTP_MAX_CONNS_PER_IP": "10", "CREATORAPI_HTTP_MAX_CONNS": "200", "CREATORAPI_HTTP_IDLE_TIMEOUT": "5s",
		"CREATORAPI_HTTP_READ_TIMEOUT": "3s", "CREATORAPI_HTTP_MAX_HEADER_BYTES": "8192",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := web.Limits{MaxConnsPerIP: 10, MaxConns: 200, IdleTimeout: 5 * time.Second, ReadTimeout: 3 * time.Second, MaxHeaderBytes: 8192}
	if cfg.HTTPLimits != want {
		t.Fatalf("limits %+v, want %+v", cfg.HTTPLimits, want)
	}
	for name, value := range map[string]string{
		"CREATORAPI_HTTP_MAX_CONNS_PER_IP": "0", "CREATORAPI_HTTP_MAX_CONNS": "x", "CREATORAPI_HTTP_IDLE_TIMEOUT": "-1s",
		"CREATORAPI_HTTP_READ_TIMEOUT": "soon", "CREATORAPI_HTTP_MAX_HEADER_BYTES": "100",
	} {
		if _, err := Load(env(map[string]string{name: value})); err == nil {
			t.Errorf("%s=%s accepted", name, value)
		}
	}
}
