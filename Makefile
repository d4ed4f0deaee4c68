# creatorapi developer targets. Everything runs on loopback; nothing here needs Docker.
GO ?= go
PG_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run demo test test-pg lint bench build fuzz-openapi

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

# Benchmarks: Go benchmarks and bounded load runs on loopback, printed as ratios to a
# baseline measured in the same run.
# The API under load (GET /api/v1/courses?limit=25, 32 connections) against a bare
# fiber handler, on SQLite and on PostgreSQL (PG_URL); BENCH_FLAGS e.g. -duration 10s.
bench:
	CREATORAPI_BENCH_POSTGRES_URL=$(PG_URL) CREATORAPI_BENCH_REDIS_URL=$(REDIS_URL) $(GO) run ./tests/bench $(BENCH_FLAGS)
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/eventsbench
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/webhooksbench
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/analyticsbench

# Fuzzing from the OpenAPI document (tests/openapi_fuzz_test.go) on SQLite and PostgreSQL,
# longer than the 100 requests per operation of CI: FUZZ_CHECKS per operation and database.
FUZZ_CHECKS ?= 3000
fuzz-openapi:
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) test ./tests -run 'TestOpenAPIFuzz' -count=1 -v -rapid.checks=$(FUZZ_CHECKS)
