package config

import (
	"strings"
	"testing"
)

func TestEventsBrokerConfig(t *testing.T) {
	cfg, err := Load(env(nil))
	if err != nil || cfg.EventsBroker != "" || cfg.EventsStream != "creatorapi" || cfg.EventsReplicas != 1 {
		t.Fatalf("defaults: broker %q stream %q replicas %d, %v", cfg.EventsBroker, cfg.EventsStream, cfg.EventsReplicas, err)
	}
	cfg, err = Load(env(map[string]string{
		"CREATORAPI_EVENTS_BROKER":   "nats://10.0.0.1:4222,nats://10.0.0.2:4222",
		"CREATORAPI_EVENTS_STREAM":   "shop-eu_2",
		"CREATORAPI_EVENTS_REPLICAS": "3",
	}))
	if err != nil || cfg.EventsBroker != "nats://10.0.0.1:4222,nats://10.0.0.2:4222" || cfg.EventsStream != "shop-eu_2" || cfg.EventsReplicas != 3 {
		t.Fatalf("set: broker %q stream %q replicas %d, %v", cfg.EventsBroker, cfg.EventsStream, cfg.EventsReplicas, err)
	}
	for _, bad := range []map[string]string{
		{"CREATORAPI_EVENTS_BROKER": "127.0.0.1:4222"},
		{"CREATORAPI_EVENTS_BROKER": "redis://127.0.0.1:6379"},
		{"CREATORAPI_EVENTS_BROKER": "nats://a:4222,"},
		{"CREATORAPI_EVENTS_STREAM": "has.dot"},
		{"CREATORAPI_EVENTS_STREAM": "wild*"},
		{"CREATORAPI_EVENTS_STREAM": strings.Repeat("x", 33)},
		{"CREATORAPI_EVENTS_REPLICAS": "0"},
		{"CREATORAPI_EVENTS_REPLICAS": "6"},
		{"CREATORAPI_EVENTS_REPLICAS": "three"},
	} {
		if _, err := Load(env(bad)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
