// Package config reads the service's configuration from the environment and refuses
// what it cannot run with, before anything starts (cmd/creatorapi/compose wires it).
package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Config is read from the environment; every variable is optional.
type Config struct {
	DataDir              string              // CREATORAPI_DATA_DIR, default ./data
	DatabaseURL          string              // CREATORAPI_DATABASE_URL, default sqlite:// in the data folder
	CacheListenURL       string              // CREATORAPI_CACHE_LISTEN_URL, default CREATORAPI_DATABASE_URL: where PostgreSQL cache invalidations are LISTENed to
	HTTPAddr             string              // CREATORAPI_HTTP_ADDR, default :8080
	AdminAddr            string              // CREATORAPI_ADMIN_ADDR, default 127.0.0.1:8081
	AdminToken           string              // CREATORAPI_ADMIN_TOKEN, default generated into the data folder
	SecretKey            string              // CREATORAPI_SECRET_KEY, default generated into the data folder
	WebhookRetrySchedule []time.Duration     // CREATORAPI_WEBHOOK_RETRY_SCHEDULE, default 1m,5m,30m,2h,6h,24h
	WebhookAllowPrivate  bool                // CREATORAPI_WEBHOOK_ALLOW_PRIVATE, default false
	WebhookDisableAfter  time.Duration       // CREATORAPI_WEBHOOK_DISABLE_AFTER, default 168h
	SMTPURL              string              // CREATORAPI_SMTP_URL, default unset (notices go to the log and the data folder)
	LogLevel             string              // CREATORAPI_LOG_LEVEL: debug, info (default), warn, error
	RateLimitStore       string              // CREATORAPI_RATE_LIMIT_STORE: auto (default), memory, database, redis
	RedisURL             string              // CREATORAPI_REDIS_URL, e.g. redis://127.0.0.1:6379/0: rate limits count there (auto)
	RedisPrefix          string              // CREATORAPI_REDIS_PREFIX, default "creatorapi:": the keys' namespace
	RedisProbeInterval   time.Duration       // how often a degraded instance asks Redis whether it is back (0: 1 s); tests shorten it
	EventsRetention      time.Duration       // CREATORAPI_EVENTS_RETENTION, default 720h: consumed outbox rows older than this are pruned
	EventsPartitions     int                 // CREATORAPI_EVENTS_PARTITIONS, default 0: 4 on PostgreSQL, 1 on SQLite (see EventPartitions)
	EventsBroker         string              // CREATORAPI_EVENTS_BROKER, default unset (SQL transport); nats://host:4222: NATS JetStream carries events
	EventsStream         string              // CREATORAPI_EVENTS_STREAM, default creatorapi: prefix of the JetStream stream, subjects and consumers
	EventsReplicas       int                 // CREATORAPI_EVENTS_REPLICAS, default 1: servers of a JetStream cluster holding the stream and each consumer (3 in a cluster)
	EventsMaxLag         time.Duration       // CREATORAPI_EVENTS_MAX_LAG, default 1s: the API paces writes while webhooks lag more (an overload valve); 0: never
	Pprof                bool                // CREATORAPI_PPROF, default false: /debug/pprof on the operator listener
	PublicURL            string              // CREATORAPI_PUBLIC_URL, default http://localhost:<port of HTTPAddr>: the base of links sent
	ShutdownGrace        time.Duration       // CREATORAPI_SHUTDOWN_GRACE, default 25s: the whole stop, from SIGTERM to exit
	ShutdownDelay        time.Duration       // CREATORAPI_SHUTDOWN_DELAY, default 0s: /readyz answers 503 this long before the listeners close
	HTTPLimits           web.Limits          // CREATORAPI_HTTP_*: connections per address and in total, timeouts, header size
	TLS                  web.TLSSettings     // CREATORAPI_TLS*, CREATORAPI_HTTPS_ADDR, CREATORAPI_ACME_*: HTTPS served by the service itself
	ClientAddresses      web.ClientAddresses // CREATORAPI_CLIENT_IP, CREATORAPI_TRUSTED_PROXIES: whose address a request is
	TraceExport          bool                // OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set: spans exported (set by compose.LoadConfig from observe.Exporting)
}

// MinAdminTokenLength is the shortest operator token accepted: the token is the only
// lock on the operator API, so it must not be guessable.
const MinAdminTokenLength = 32

// MaxEventPartitions bounds CREATORAPI_EVENTS_PARTITIONS: each partition of each consumer
// is a subscriber polling the outbox somewhere.
const MaxEventPartitions = 256

// EventPartitions is the partition count of the event stream: the setting, or 4 on
// PostgreSQL (up to four instances share each consumer, and a lone instance's twelve
// subscribers fit its pool of 16 beside the API) and 1 on SQLite (one writer: partitions
// would only take turns on it).
func (c Config) EventPartitions(onPostgres bool) int {
	switch {
	case c.EventsPartitions > 0:
		return c.EventsPartitions
	case onPostgres:
		return 4
	default:
		return 1
	}
}

// Load reads the configuration through getenv (os.Getenv in production).
func Load(getenv func(string) string) (Config, error) {
	get := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	cfg := Config{
		DataDir:     get("CREATORAPI_DATA_DIR", "./data"),
		DatabaseURL: get("CREATORAPI_DATABASE_URL", "sqlite://"),
		// A session of its own (LISTEN): a pooler in transaction mode cannot carry it.
		CacheListenURL: get("CREATORAPI_CACHE_LISTEN_URL", ""),
		HTTPAddr:       get("CREATORAPI_HTTP_ADDR", ":8080"),
		AdminAddr:      get("CREATORAPI_ADMIN_ADDR", "127.0.0.1:8081"),
		AdminToken:     get("CREATORAPI_ADMIN_TOKEN", ""),
		SecretKey:      get("CREATORAPI_SECRET_KEY", ""),
		SMTPURL:        get("CREATORAPI_SMTP_URL", ""),
		LogLevel:       get("CREATORAPI_LOG_LEVEL", "info"),
		// auto: memory on SQLite (one instance), database on PostgreSQL (shared).
		RateLimitStore: get("CREATORAPI_RATE_LIMIT_STORE", "auto"),
		RedisURL:       get("CREATORAPI_REDIS_URL", ""),
		RedisPrefix:    get("CREATORAPI_REDIS_PREFIX", "creatorapi:"),
		EventsBroker:   get("CREATORAPI_EVENTS_BROKER", ""),
		EventsStream:   get("CREATORAPI_EVENTS_STREAM", "creatorapi"),
	}
	if n := len(cfg.AdminToken); n > 0 && n < MinAdminTokenLength {
		return Config{}, fmt.Errorf("CREATORAPI_ADMIN_TOKEN is %d characters, it must be at least %d (generate one with `openssl rand -hex 32`), "+
			"or leave it unset to have one generated into the data folder (admin.token)", n, MinAdminTokenLength)
	}
	var err error
	if cfg.WebhookRetrySchedule, err = domainwebhooks.ParseSchedule(get("CREATORAPI_WEBHOOK_RETRY_SCHEDULE", "1m,5m,30m,2h,6h,24h")); err != nil {
		return Config{}, fmt.Errorf("CREATORAPI_WEBHOOK_RETRY_SCHEDULE: %w", err)
	}
	if cfg.WebhookAllowPrivate, err = strconv.ParseBool(get("CREATORAPI_WEBHOOK_ALLOW_PRIVATE", "false")); err != nil {
		return Config{}, fmt.Errorf("CREATORAPI_WEBHOOK_ALLOW_PRIVATE: %w", err)
	}
	if cfg.WebhookDisableAfter, err = time.ParseDuration(get("CREATORAPI_WEBHOOK_DISABLE_AFTER", "168h")); err != nil || cfg.WebhookDisableAfter <= 0 {
		return Config{}, fmt.Errorf("CREATORAPI_WEBHOOK_DISABLE_AFTER must be a positive duration such as 168h")
	}
	if cfg.EventsRetention, err = time.ParseDuration(get("CREATORAPI_EVENTS_RETENTION", "720h")); err != nil || cfg.EventsRetention <= 0 {
		return Config{}, fmt.Errorf("CREATORAPI_EVENTS_RETENTION must be a positive duration such as 720h")
	}
	if v := get("CREATORAPI_EVENTS_PARTITIONS", ""); v != "" {
		if cfg.EventsPartitions, err = strconv.Atoi(v); err != nil || cfg.EventsPartitions < 1 || cfg.EventsPartitions > MaxEventPartitions {
			return Config{}, fmt.Errorf("CREATORAPI_EVENTS_PARTITIONS must be a whole number from 1 to %d", MaxEventPartitions)
		}
	}
	if err := checkEventsBroker(cfg.EventsBroker, cfg.EventsStream); err != nil {
		return Config{}, err
	}
	if cfg.EventsReplicas, err = parseEventsReplicas(get("CREATORAPI_EVENTS_REPLICAS", "1")); err != nil {
		return Config{}, err
	}
	if cfg.EventsMaxLag, err = time.ParseDuration(get("CREATORAPI_EVENTS_MAX_LAG", "1s")); err != nil || cfg.EventsMaxLag < 0 {
		return Config{}, fmt.Errorf("CREATORAPI_EVENTS_MAX_LAG must be a duration such as 1s, or 0 to never pace the API")
	}
	if cfg.Pprof, err = strconv.ParseBool(get("CREATORAPI_PPROF", "false")); err != nil {
		return Config{}, fmt.Errorf("CREATORAPI_PPROF: %w", err)
	}
	if cfg.TLS, err = web.LoadTLSSettings(get); err != nil {
		return Config{}, err
	}
	if cfg.ClientAddresses, err = web.LoadClientAddresses(get); err != nil {
		return Config{}, err
	}
	if cfg.PublicURL, err = web.PublicURLFor(get("CREATORAPI_PUBLIC_URL", ""), cfg.HTTPAddr, cfg.TLS); err != nil {
		return Config{}, err
	}
	if cfg.ShutdownGrace, err = time.ParseDuration(get("CREATORAPI_SHUTDOWN_GRACE", "25s")); err != nil || cfg.ShutdownGrace <= 0 {
		return Config{}, fmt.Errorf("CREATORAPI_SHUTDOWN_GRACE must be a positive duration such as 25s")
	}
	if cfg.ShutdownDelay, err = time.ParseDuration(get("CREATORAPI_SHUTDOWN_DELAY", "0s")); err != nil || cfg.ShutdownDelay < 0 || cfg.ShutdownDelay >= cfg.ShutdownGrace {
		return Config{}, fmt.Errorf("CREATORAPI_SHUTDOWN_DELAY must be a duration such as 5s, shorter than CREATORAPI_SHUTDOWN_GRACE")
	}
	if cfg.HTTPLimits, err = web.LoadLimits(get); err != nil {
		return Config{}, err
	}
	switch cfg.RateLimitStore {
	case "auto", "memory", "database":
	case "redis":
		if cfg.RedisURL == "" {
			return Config{}, fmt.Errorf("CREATORAPI_RATE_LIMIT_STORE=redis needs CREATORAPI_REDIS_URL")
		}
	default:
		return Config{}, fmt.Errorf("CREATORAPI_RATE_LIMIT_STORE must be auto, memory, database or redis")
	}
	switch cfg.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return Config{}, fmt.Errorf("CREATORAPI_LOG_LEVEL must be debug, info, warn or error")
	}
	return cfg, nil
}

// RateLimitStoreFor resolves "auto": Redis when CREATORAPI_REDIS_URL is set (no row lock
// per request), else the database on PostgreSQL (shared by the instances), else memory.
func (c Config) RateLimitStoreFor(postgres bool) string {
	switch {
	case c.RateLimitStore != "auto":
		return c.RateLimitStore
	case c.RedisURL != "":
		return "redis"
	case postgres:
		return "database"
	}
	return "memory"
}
