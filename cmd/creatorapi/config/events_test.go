package config

import "testing"

func TestEventPartitionsDefaultPerDialectAndSetting(t *testing.T) {
	cfg, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.EventPartitions(true); got != 4 {
		t.Fatalf("PostgreSQL default %d, want 4", got)
	}
	if got := cfg.EventPartitions(false); got != 1 {
		t.Fatalf("SQLite default %d, want 1", got)
	}
	cfg, err = Load(env(map[string]string{"CREATORAPI_EVENTS_PARTITIONS": "16"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.EventPartitions(true) != 16 || cfg.EventPartitions(false) != 16 {
		t.Fatalf("setting 16 gives %d / %d", cfg.EventPartitions(true), cfg.EventPartitions(false))
	}
	for _, bad := range []string{"0", "-2", "x", "257"} {
		if _, err := Load(env(map[string]string{"CREATORAPI_EVENTS_PARTITIONS": bad})); err == nil {
			t.Fatalf("CREATORAPI_EVENTS_PARTITIONS=%s was accepted", bad)
		}
	}
}
