package compose

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

func TestEventPartitionsDefaultPerDialectAndSetting(t *testing.T) {
	cfg, err := LoadConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.EventPartitions(sqldb.Postgres); got != 4 {
		t.Fatalf("PostgreSQL default %d, want 4", got)
	}
	if got := cfg.EventPartitions(sqldb.SQLite); got != 1 {
		t.Fatalf("SQLite default %d, want 1", got)
	}
	cfg, err = LoadConfig(env(map[string]string{"CREATORAPI_EVENTS_PARTITIONS": "16"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.EventPartitions(sqldb.Postgres) != 16 || cfg.EventPartitions(sqldb.SQLite) != 16 {
		t.Fatalf("setting 16 gives %d / %d", cfg.EventPartitions(sqldb.Postgres), cfg.EventPartitions(sqldb.SQLite))
	}
	for _, bad := range []string{"0", "-2", "x", "257"} {
		if _, err := LoadConfig(env(map[string]string{"CREATORAPI_EVENTS_PARTITIONS": bad})); err == nil {
			t.Fatalf("CREATORAPI_EVENTS_PARTITIONS=%s was accepted", bad)
		}
	}
}
