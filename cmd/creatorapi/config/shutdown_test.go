package config

import (
	"testing"
	"time"
)

func TestShutdownSettings(t *testing.T) {
	cfg, err := Load(env(nil))
	if err != nil || cfg.ShutdownGrace != 25*time.Second || cfg.ShutdownDelay != 0 {
		t.Fatalf("defaults: grace %s, delay %s, %v", cfg.ShutdownGrace, cfg.ShutdownDelay, err)
	}
	cfg, err = Load(env(map[string]string{"CREATORAPI_SHUTDOWN_GRACE": "40s", "CREATORAPI_SHUTDOWN_DELAY": "5s"}))
	if err != nil || cfg.ShutdownGrace != 40*time.Second || cfg.ShutdownDelay != 5*time.Second {
		t.Fatalf("set: grace %s, delay %s, %v", cfg.ShutdownGrace, cfg.ShutdownDelay, err)
	}
	for _, bad := range []map[string]string{
		{"CREATORAPI_SHUTDOWN_GRACE": "0s"},
		{"CREATORAPI_SHUTDOWN_GRACE": "soon"},
		{"CREATORAPI_SHUTDOWN_DELAY": "-1s"},
		{"CREATORAPI_SHUTDOWN_GRACE": "5s", "CREATORAPI_SHUTDOWN_DELAY": "5s"}, // no time left to drain
	} {
		if _, err := Load(env(bad)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
