# creatorapi developer targets. Everything runs on loopback; only `make image` needs
# docker or podman (and nothing from a registry).
GO ?= go
PG_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
REDIS_URL ?= redis://127.0.0.1:6379/0
NATS_URL ?= nats://127.0.0.1:4222

.PHONY: run demo test test-pg lint api-compat docs-examples clients bench build image fuzz fuzz-native fuzz-openapi gallery

# The version stamped into the binary (creatorapi version, creatorapi_build_info) and the image.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
STAMP = -X github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo.version=$(VERSION) \
        -X github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo.revision=$(REVISION)

build:
	$(GO) build -ldflags '$(STAMP)' -o creatorapi ./cmd/creatorapi

# The container image (Dockerfile): docker when its daemon answers, else podman.
IMAGE ?= creatorapi:$(VERSION)
IMAGE_LATEST ?= creatorapi:latest
CA_BUNDLE ?= /etc/ssl/certs/ca-certificates.crt
CONTAINER_TOOL ?= $(shell if docker info >/dev/null 2>&1; then echo docker; elif command -v podman >/dev/null 2>&1; then echo podman; fi)

image:
	@test -n "$(CONTAINER_TOOL)" || { echo "make image: install docker (with its daemon running) or podman" >&2; exit 1; }
	@test -f $(CA_BUNDLE) || { echo "make image: no CA bundle at $(CA_BUNDLE) (Debian: apt-get install ca-certificates)" >&2; exit 1; }
	rm -rf .image && mkdir -p .image/data .image/rootfs/tmp .image/rootfs/etc/ssl/certs && chmod 1777 .image/rootfs/tmp
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w $(STAMP)' -o .image/rootfs/creatorapi ./cmd/creatorapi
	cp $(CA_BUNDLE) .image/rootfs/etc/ssl/certs/ca-certificates.crt
	$(CONTAINER_TOOL) build $(if $(filter podman,$(CONTAINER_TOOL)),--format docker) \
	  --build-arg VERSION=$(VERSION) --build-arg REVISION=$(REVISION) \
	  --build-arg CREATED=$$(date -u +%Y-%m-%dT%H:%M:%SZ) -t $(IMAGE) $(if $(IMAGE_LATEST),-t $(IMAGE_LATEST)) .

run:
	$(GO) run ./cmd/creatorapi serve

demo:
	$(GO) run ./cmd/creatorapi demo

# The README's test command; PostgreSQL suites run when CREATORAPI_TEST_POSTGRES_URL is set,
# Redis ones with CREATORAPI_TEST_REDIS_URL, NATS JetStream ones with CREATORAPI_TEST_NATS_URL.
# go test hides everything a passing package prints, so a skipped suite (no PostgreSQL,
# chromium, podman...) is invisible there: the suites record their skips in the file named
# by CREATORAPI_TEST_SKIPS (testenv.SkipSuite) and this target prints them after the run.
test:
	@$(call go_test_listing_skips,$(GO) test ./...)

# The same suites with PostgreSQL (PG_URL), Redis (REDIS_URL) and NATS JetStream (NATS_URL) on.
test-pg:
	@$(call go_test_listing_skips,CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) CREATORAPI_TEST_REDIS_URL=$(REDIS_URL) CREATORAPI_TEST_NATS_URL=$(NATS_URL) $(GO) test -count=1 ./...)

# A full-page screenshot of every dashboard page, role and screen width of the phones tour,
# in tests/artifacts/dashboard-a11y/sqlite (the tour in `make test` captures only pages that fail).
gallery:
	CREATORAPI_TEST_GALLERY=1 $(GO) test -count=1 -run '^TestBrowserDashboardOnPhonesIsAccessibleOnSQLite$$' ./tests
	@echo "screenshots: $${CREATORAPI_TEST_ARTIFACTS:-tests/artifacts}/dashboard-a11y/sqlite"

# go_test_listing_skips runs $(1) with a fresh skips file, then lists the failed tests (a CI
# log shows only its tail, and a failing package's test output can be thousands of lines long)
# and the skipped suites, and exits with go test's status.
define go_test_listing_skips
skips=$$(mktemp "$${TMPDIR:-/tmp}/creatorapi-skips.XXXXXX"); log=$$skips.log; \
echo '$(1)'; { CREATORAPI_TEST_SKIPS=$$skips $(1); echo $$? > $$skips.status; } 2>&1 | tee $$log; status=$$(cat $$skips.status); \
if grep -qE -e '--- FAIL|^panic:|^FAIL' $$log; then printf '\nFAILED (from the output above):\n'; grep -E -e '--- FAIL|^panic:|^FAIL' $$log | sed 's/^/  /'; fi; \
if [ -s $$skips ]; then printf '\nSKIPPED suites (this run is incomplete):\n'; sort -u $$skips | sed 's/^/  /'; fi; \
rm -f $$skips $$log $$skips.status; exit $$status
endef

# Go native fuzzing, each target for FUZZTIME (CI: 20s): the public and operator APIs on
# SQLite and PostgreSQL (PG_URL, or CREATORAPI_TEST_POSTGRES_URL when set), raw bytes on a
# real listener (framing, parser errors), and the strict body decoder. Failing inputs land in testdata/fuzz/<target>/: keep them as regression seeds.
FUZZTIME ?= 5m
# make fuzz: every fuzzer, longer than CI (which runs fuzz-native for 20 s a target, and the
# document-driven fuzzing at 100 requests per operation inside go test).
fuzz: fuzz-native fuzz-openapi

fuzz-native:
	CREATORAPI_TEST_POSTGRES_URL=$${CREATORAPI_TEST_POSTGRES_URL:-$(PG_URL)} $(GO) test ./tests/fuzz -run '^$$' -fuzz '^FuzzPublicAPI$$' -fuzztime $(FUZZTIME)
	CREATORAPI_TEST_POSTGRES_URL=$${CREATORAPI_TEST_POSTGRES_URL:-$(PG_URL)} $(GO) test ./tests/fuzz -run '^$$' -fuzz '^FuzzOperatorAPI$$' -fuzztime $(FUZZTIME)
	$(GO) test ./tests/fuzz -run '^$$' -fuzz '^FuzzRawHTTP$$' -fuzztime $(FUZZTIME)
	$(GO) test ./ports/http/web -run '^$$' -fuzz '^FuzzDecodeBody$$' -fuzztime $(FUZZTIME)

# Linters, pinned (go run fetches them through the module proxy once): gofmt and goimports
# (imports grouped and complete), go vet, staticcheck.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOIMPORTS ?= golang.org/x/tools/cmd/goimports@v0.52.0
lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	@unimported=$$($(GO) run $(GOIMPORTS) -l $$(git ls-files '*.go')); \
	if [ -n "$$unimported" ]; then echo "goimports would change:"; echo "$$unimported"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# The breaking-change gate of /api/v1 (docs/openapi.md, "Compatibility"): the current OpenAPI
# document against the released one (ports/http/api/v1/openapi/released/v1.yaml), the golden
# webhook payloads against the released ones (released/v1-events), with oasdiff. Fails on a
# breaking change, lists the additive ones. tools/apicompat is a module of its own (oasdiff
# and kin-openapi stay out of the service's module graph), so its vet and tests run here.
api-compat:
	$(GO) -C tools/apicompat vet ./...
	$(GO) -C tools/apicompat test -count=1 ./...
	$(GO) -C tools/apicompat run . -root ../..

# The examples /docs shows under each operation (ports/http/docs/examples.json): calls every
# operation on a running service (SQLite) and rewrites the file; TestDocsExamples checks it in CI.
docs-examples:
	CREATORAPI_WRITE_DOCS_EXAMPLES=1 $(GO) test ./tests -run '^TestDocsExamples$$' -count=1

# The clients (docs/clients.md): regenerate the Go client from the OpenAPI document, then build
# and test both against a running service.
clients:
	$(GO) generate ./clients/go/creatorapi
	cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error
	$(GO) test ./clients/... ./tests -run 'TestGoClient|TestTypeScriptClient|TestGeneratedClientIsCurrent' -count=1

# webhookload: the built binary over HTTP under open-loop load (50, 200, 500/s, saturation), fresh
# and aged PostgreSQL and fresh SQLite; WEBHOOKLOAD_FLAGS e.g. -phase 5s -aged-rows 100000, or
# -states fresh -sqlite=false -instances 1,2,3 -transport sql,nats (docs/events.md, "Scaling").
# Then the Idempotency-Key's cost: every other request keyed, both halves' API latencies per phase.
# BENCH_NETWORK=1 adds the simulated network (about 6 min): three instances reaching PostgreSQL
# and NATS through Toxiproxy (+1 ms each way), 200/s, then one instance cut off for 10 s
# (handover, losses, duplicates), on both transports (docs/performance.md, "Capacity model").
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
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/webhookload -states fresh -sqlite=false -phases 50,200 -phase 10s -idle 2s -idempotency alternate
	if [ -n "$(BENCH_NETWORK)" ]; then CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) CREATORAPI_TEST_NATS_URL=$(NATS_URL) $(GO) run ./tests/webhookload -states fresh -sqlite=false -transport sql,nats -instances 3 -network -phases 200,cut -phase 10s -idle 2s; fi
	$(GO) run ./tests/dashboardbench
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) run ./tests/deliverylogbench

# Fuzzing from the OpenAPI document (tests/openapi_fuzz_test.go) on SQLite and PostgreSQL,
# longer than the 100 requests per operation of CI: FUZZ_CHECKS per operation and database.
FUZZ_CHECKS ?= 3000
fuzz-openapi:
	CREATORAPI_TEST_POSTGRES_URL=$(PG_URL) $(GO) test ./tests -run 'TestOpenAPIFuzz' -count=1 -v -rapid.checks=$(FUZZ_CHECKS)
