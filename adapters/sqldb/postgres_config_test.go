package sqldb

import (
	"strings"
	"testing"
	"time"
)

func TestPostgresConfigTakesLibpqTimeoutsFromTheURL(t *testing.T) {
	cfg, err := postgresConfig("postgres://u@db.example:5432/app?tcp_user_timeout=2500&application_name=x")
	if err != nil {
		t.Fatal(err)
	}
	if _, sent := cfg.RuntimeParams["tcp_user_timeout"]; sent {
		t.Error("tcp_user_timeout would reach the server as a setting, which it refuses")
	}
	if cfg.RuntimeParams["application_name"] != "x" {
		t.Errorf("runtime params %v lost application_name", cfg.RuntimeParams)
	}
	if cfg.ConnectTimeout != 5*time.Second {
		t.Errorf("connect timeout %s, want the default 5 s", cfg.ConnectTimeout)
	}
	if cfg.DialFunc == nil {
		t.Error("no dialer with the user timeout and keepalives")
	}

	cfg, err = postgresConfig("postgres://u@db.example/app?connect_timeout=9")
	if err != nil || cfg.ConnectTimeout != 9*time.Second {
		t.Errorf("connect_timeout=9 gave %v, %v", cfg, err)
	}

	_, err = postgresConfig("postgres://u@db.example/app?tcp_user_timeout=30s")
	if err == nil || !strings.Contains(err.Error(), "milliseconds") {
		t.Errorf("tcp_user_timeout=30s: error %v, want one that asks for milliseconds", err)
	}
}
