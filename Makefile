# creatorapi developer targets. Everything runs on loopback; nothing here needs Docker.
GO ?= go
PG_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run demo test test-pg lint bench build

build:
	$(GO) build -o creatorapi ./cmd/creatorapi

run:
	$(GO) run ./cmd/creatorapi serve

demo:
	$(GO) run ./cmd/creatorapi demo

# The README's test command; PostgreSQL suites run when CREATORAPI_TEST_POSTGRES_URL is set.
test:
	$(GO) test ./...

# The same suites with PostgreSQL (PG_URL) and Redis (REDIS_URL) on.
test-pg:
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) CREATORAPI_TEST_REDIS_URL=$(REDIS_URL) $(GO) test -count=1 ./...

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# webhookload: the built binary over HTTP under open-loop load (50, 200, 500/s, saturation), fresh
# and aged PostgreSQL and fresh SQLite; WEBHOOKLOAD_FLAGS e.g. -phase 5s -aged-rows 100000.
# Benchmarks: Go benchmarks and bounded load runs on loopback, printed as ratios to a
# baseline measured in the same run.
# Every dashboard page (1,000 keys, 10,000 audit rows, SQLite) against GET /healthz.
# The webhook pages with 1,000,000 deliveries on PostgreSQL (deliverylogbench, p99 < 30 ms).
# The API under load (GET /api/v1/courses?limit=25, 32 connections) against a bare
# fiber handler, on SQLite and on PostgreSQL (PG_URL); BENCH_FLAGS e.g. -duration 10s.
bench:
	CREATORAPI_BENCH_POSTGRES_URL=$(PG_URL) CREATORAPI_BENCH_REDIS_URL=$(REDIS_URL) $(GO) run ./tests/bench $(BENCH_FLAGS)
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/eventsbench
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/webhooksbench
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/analyticsbench
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/webhookload $(WEBHOOKLOAD_FLAGS)
	$(GO) run ./tests/dashboardbench
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/deliverylogbench
