package config

import (
	"strings"
	"testing"
)

func TestEventsBrokerConfig(t *testing.T) {
	cfg, err := Load(env(nil))
	if err != nil || cfg.EventsBroker != "" || cfg.EventsStream != "creatorapi" {
		t.Fatalf("defaults: broker %q stream %q, %v", cfg.EventsBroker, cfg.EventsStream, err)
	}
	cfg, err = Load(env(map[string]string{
		"CREATORAPI_EVENTS_BROKER": "nats://10.0.0.1:4222,nats://10.0.0.2:4222",
		"CREATORAPI_EVENTS_STREAM": "shop-eu_2",
	}))
	if err != nil || cfg.EventsBroker != "nats://10.0.0.1:4222,nats://10.0.0.2:4222" || cfg.EventsStream != "shop-eu_2" {
		t.Fatalf("set: broker %q stream %q, %v", cfg.EventsBroker, cfg.EventsStream, err)
	}
	for _, bad := range []map[string]string{
		{"CREATORAPI_EVENTS_BROKER": "127.0.0.1:4222"},
		{"CREATORAPI_EVENTS_BROKER": "redis://127.0.0.1:6379"},
		{"CREATORAPI_EVENTS_BROKER": "nats://a:4222,"},
		{"CREATORAPI_EVENTS_STREAM": "has.dot"},
		{"CREATORAPI_EVENTS_STREAM": "wild*"},
		{"CREATORAPI_EVENTS_STREAM": strings.Repeat("x", 33)},
	} {
		if _, err := Load(env(bad)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
