# creatorapi developer targets. Everything runs on loopback; nothing here needs Docker.
GO ?= go
PG_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run demo test test-pg lint bench build fuzz

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

# Go native fuzzing, each target for FUZZTIME (CI: 20s): the public and operator APIs on
# SQLite and PostgreSQL (PG_URL, or CREATORAPI_TEST_POSTGRES_URL when set), raw bytes on a
# real listener (framing, parser errors), and the strict body decoder. Failing inputs land in testdata/fuzz/<target>/: keep them as regression seeds.
FUZZTIME ?= 5m
fuzz:
	CREATORAPI_TEST_POSTGRES_URL=$${CREATORAPI_TEST_POSTGRES_URL:-$(PG_URL)} $(GO) test ./tests -run '^$$' -fuzz '^FuzzPublicAPI$$' -fuzztime $(FUZZTIME)
	CREATORAPI_TEST_POSTGRES_URL=$${CREATORAPI_TEST_POSTGRES_URL:-$(PG_URL)} $(GO) test ./tests -run '^$$' -fuzz '^FuzzOperatorAPI$$' -fuzztime $(FUZZTIME)
	$(GO) test ./tests -run '^$$' -fuzz '^FuzzRawHTTP$$' -fuzztime $(FUZZTIME)
	$(GO) test ./ports/http/web -run '^$$' -fuzz '^FuzzDecodeBody$$' -fuzztime $(FUZZTIME)

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
