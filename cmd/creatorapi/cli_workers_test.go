package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// hookLog records which functions scheduled the start hooks a graph ran.
type hookLog struct {
	mu      sync.Mutex
	callers []string
}

func (h *hookLog) LogEvent(e fxevent.Event) {
	if s, ok := e.(*fxevent.OnStartExecuting); ok {
		h.mu.Lock()
		defer h.mu.Unlock()
		name := s.CallerName[strings.LastIndex(s.CallerName, "/")+1:]
		h.callers = append(h.callers, name)
	}
}

func (h *hookLog) scheduledBy() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.callers)
}

// testCLI is a CLI on a fresh SQLite data folder, with its graphs watched by log.
func testCLI(t *testing.T, log *hookLog, extra ...fx.Option) (*CLI, *bytes.Buffer) {
	dir := t.TempDir()
	env := map[string]string{
		"CREATORAPI_DATA_DIR":   dir,
		"CREATORAPI_HTTP_ADDR":  "127.0.0.1:0",
		"CREATORAPI_ADMIN_ADDR": "127.0.0.1:0",
		"CREATORAPI_LOG_LEVEL":  "error",
	}
	var out, errs bytes.Buffer
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stderr: %s", errs.String())
		}
	})
	observe := append([]fx.Option{fx.WithLogger(func() fxevent.Logger { return log })}, extra...)
	return &CLI{stdout: &out, stderr: &errs, getenv: func(k string) string { return env[k] }, observe: observe}, &out
}

// resources are the only start hooks a one-shot verb may run: the database's migrations,
// the master key's proof, the Redis and NATS connections. A ticker, a poller or the
// event router would be scheduled by something else (workers.go's run).
var resources = []string{"compose.newDatabase", "compose.newMasterKey", "compose.newRateCounter", "compose.newBroker"}

// The one-shot verbs build the modules without the workers: nothing runs in the
// background while a CLI command changes data, and none of them waits on a worker to stop.
func TestOneShotVerbsStartNoWorker(t *testing.T) {
	for _, args := range [][]string{
		{"migrate"},
		{"workspace", "create", "--name", "Academy", "--owner-email", "owner@example.com"},
		{"secret-key", "rotate"},
		{"backup", "--out", filepath.Join(t.TempDir(), "creatorapi.backup")},
	} {
		t.Run(strings.Join(args[:min(2, len(args))], " "), func(t *testing.T) {
			log := &hookLog{}
			cli, _ := testCLI(t, log)
			if code := cli.run(args); code != 0 {
				t.Fatalf("exit code %d", code)
			}
			hooks := log.scheduledBy()
			if len(hooks) == 0 {
				t.Fatal("no start hook seen: the graph was not watched")
			}
			for _, h := range hooks {
				if !slices.Contains(resources, h) {
					t.Errorf("a start hook scheduled by %s ran; a one-shot verb starts only %v", h, resources)
				}
			}
		})
	}
}

// serve starts every worker of workers.go (here on SQLite, dispatching in the
// background, without a broker), then the listeners, each group under one hook.
func TestServeStartsEveryWorker(t *testing.T) {
	log := &hookLog{}
	var workers compose.WorkerGroup
	var listeners compose.ListenerGroup
	stopOnceStarted := fx.Invoke(func(lc fx.Lifecycle, sd fx.Shutdowner) {
		lc.Append(fx.Hook{OnStart: func(context.Context) error { return sd.Shutdown() }})
	})
	cli, _ := testCLI(t, log, fx.Populate(&workers, &listeners), stopOnceStarted)
	if code := cli.run([]string{"serve"}); code != 0 {
		t.Fatalf("serve exit code %d", code)
	}
	want := []string{"database maintenance warnings", "flush key usage", "flush deprecated calls", "send sunset notices", "sweep rate limits", "webhook dispatcher",
		"send webhook notices", "prune webhook log", "run webhook backfills", "prune sign-in state", "purge idempotency records", "send sign-in links", "watch the master key",
		"retire inline consumer groups", "cache invalidation listener", "events retention", "event router"}
	var names []string
	for _, w := range workers {
		names = append(names, w.Name)
	}
	if !slices.Equal(names, want) {
		t.Errorf("workers in start order:\n got %q\nwant %q", names, want)
	}
	names = nil
	for _, l := range listeners {
		names = append(names, l.Name)
	}
	if want := []string{"public listener", "operator listener", "readiness drain"}; !slices.Equal(names, want) {
		t.Errorf("listeners in start order: got %q, want %q", names, want)
	}
	groups := 0
	for _, h := range log.scheduledBy() {
		if h == "compose.run" {
			groups++
		}
	}
	if groups != 2 {
		t.Errorf("%d groups started through compose.run, want 2 (workers, listeners): %q", groups, log.scheduledBy())
	}
}
