package config

import (
	"testing"
	"time"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestDefaultsAreSafe(t *testing.T) {
	cfg, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DataDir != "./data" || cfg.DatabaseURL != "sqlite://" || cfg.HTTPAddr != ":8080" ||
		cfg.AdminAddr != "127.0.0.1:8081" || cfg.WebhookAllowPrivate || cfg.WebhookDisableAfter != 168*time.Hour {
		t.Fatalf("defaults %+v", cfg)
	}
	want := []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour, 24 * time.Hour}
	if len(cfg.WebhookRetrySchedule) != len(want) {
		t.Fatalf("schedule %v", cfg.WebhookRetrySchedule)
	}
	for i := range want {
		if cfg.WebhookRetrySchedule[i] != want[i] {
			t.Fatalf("schedule %v, want %v", cfg.WebhookRetrySchedule, want)
		}
	}
}

func TestConfigFromEnvironment(t *testing.T) {
	cfg, err := Load(env(map[string]string{
		"CREATORAPI_DATABASE_URL":           "postgres://u@h/db",
		"CREATORAPI_WEBHOOK_RETRY_SCHEDULE": "1s, 2s,5s",
		"CREATORAPI_WEBHOOK_ALLOW_PRIVATE":  "true",
		"CREATORAPI_WEBHOOK_DISABLE_AFTER":  "10s",
		"CREATORAPI_ADMIN_ADDR":             "127.0.0.1:9000",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DatabaseURL != "postgres://u@h/db" || len(cfg.WebhookRetrySchedule) != 3 || cfg.WebhookRetrySchedule[2] != 5*time.Second ||
		!cfg.WebhookAllowPrivate || cfg.WebhookDisableAfter != 10*time.Second || cfg.AdminAddr != "127.0.0.1:9000" {
		t.Fatalf("%+v", cfg)
	}
}

func TestBadConfigIsRefused(t *testing.T) {
	for name, vars := range map[string]map[string]string{
		"schedule not a duration": {"CREATORAPI_WEBHOOK_RETRY_SCHEDULE": "1m,soon"},
		"schedule decreasing":     {"CREATORAPI_WEBHOOK_RETRY_SCHEDULE": "5m,1m"},
		"allow private not bool":  {"CREATORAPI_WEBHOOK_ALLOW_PRIVATE": "maybe"},
		"disable after negative":  {"CREATORAPI_WEBHOOK_DISABLE_AFTER": "-1h"},
		"log level":               {"CREATORAPI_LOG_LEVEL": "loud"},
	} {
		if _, err := Load(env(vars)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
