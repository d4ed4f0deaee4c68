package container

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const adminToken = "container-suite-admin-token-0123456789abcdef" // 32 characters at least, or the service refuses to start

// The image on SQLite in a named volume: migrate, serve with the demo data, a key, an API
// call; SIGTERM under load drains without failing a request that was sent, and exits 0
// within the grace; a new container on the same volume has the data.
func TestSQLiteOnANamedVolume(t *testing.T) {
	p, img := podman(t)
	vol := p.Volume(t, "sqlite")
	p.must(t, "run", "--rm", "--network", "host", "--read-only", "--no-healthcheck", "-v", vol+":/data", img, "migrate")

	env := map[string]string{
		"CREATORAPI_ADMIN_TOKEN":    adminToken,
		"CREATORAPI_SHUTDOWN_DELAY": "1s",
		"CREATORAPI_SHUTDOWN_GRACE": "20s",
	}
	first := p.Start(t, img, "demo", vol, env, "demo")
	cold := first.WaitReady(t, time.Minute)
	t.Logf("cold start to ready (container start, SQLite, demo seed): %s", cold.Round(time.Millisecond))

	logs := first.Logs(t)
	org := regexp.MustCompile(`Workspace:\s+(org_\w+)`).FindStringSubmatch(logs)
	demoKey := regexp.MustCompile(`API key:\s+(svc_\w+)`).FindStringSubmatch(logs)
	if org == nil || demoKey == nil {
		t.Fatalf("demo printed no workspace or key:\n%s", tail(logs, 40))
	}
	var courses struct{ Data []struct{ ID string } }
	expect(t, http.StatusOK, http.MethodGet, first.API+"/api/v1/courses", demoKey[1], nil, &courses)
	if len(courses.Data) == 0 {
		t.Fatal("the demo workspace lists no course")
	}
	if out := first.Exec(t, "healthcheck"); !strings.HasPrefix(out, "200 ") {
		t.Fatalf("healthcheck said %q", out)
	}
	assertNonRoot(t, p, first.Name)

	// SIGTERM in the middle of load: /readyz turns 503 "draining" while requests are
	// still answered, then the listener closes; no request sent is lost.
	loadKey := createKey(t, first.Admin, adminToken, org[1], 1_000_000, 100_000_000, "read:courses")
	load := StartLoad(first.API+"/api/v1/courses?limit=5", loadKey, 12)
	time.Sleep(time.Second)
	before := load.ok.Load()
	load.Signal()
	signalled := time.Now()
	first.Signal(t, "TERM")
	draining := watchDraining(first.API)
	code := first.Wait(t, 30*time.Second)
	drain := time.Since(signalled)
	load.Stop()
	sawDraining, okWhileDraining := draining()
	if code != "0" {
		t.Fatalf("exit code %s after SIGTERM", code)
	}
	if f := load.Failures(); len(f) > 0 {
		t.Fatalf("%d requests failed during the drain (%d ok); first: %v", len(f), load.ok.Load(), f[:min(5, len(f))])
	}
	if !sawDraining {
		t.Fatal("/readyz never answered 503 draining after SIGTERM")
	}
	if after := load.ok.Load() - before; after == 0 || okWhileDraining == 0 {
		t.Fatalf("no request answered after SIGTERM (%d) or while /readyz said draining (%d)", after, okWhileDraining)
	}
	t.Logf("drain under load: SIGTERM to exit 0 in %s (delay 1s); %d requests ok, %d after SIGTERM, %d refused once closed; %s",
		drain.Round(time.Millisecond), load.ok.Load(), load.ok.Load()-before, load.refused.Load(), stoppedLine(first.Logs(t)))

	// A new container on the same volume: the same workspace, course and keys.
	second := p.Start(t, img, "serve", vol, env)
	second.WaitReady(t, time.Minute)
	var again struct{ Data []struct{ ID string } }
	expect(t, http.StatusOK, http.MethodGet, second.API+"/api/v1/courses", loadKey, nil, &again)
	if len(again.Data) != len(courses.Data) || again.Data[0].ID != courses.Data[0].ID {
		t.Fatalf("after restart the courses are %+v, were %+v", again.Data, courses.Data)
	}
	expect(t, http.StatusOK, http.MethodGet, second.API+"/api/v1/courses", demoKey[1], nil, nil)
}

// watchDraining polls /readyz until the listener closes; the returned function says
// whether it answered 503 draining and how many of those answers came while the API
// still served (the load balancer's window).
func watchDraining(api string) func() (bool, int) {
	done := make(chan struct{})
	saw, count := false, 0
	go func() {
		defer close(done)
		for {
			resp, err := http.Get(api + "/readyz")
			if err != nil {
				return
			}
			var body struct{ Status string }
			_ = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable && body.Status == "draining" {
				saw = true
				count++
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	return func() (bool, int) { <-done; return saw, count }
}

// stoppedLine is the service's own measure of its stop ("creatorapi: stopped in 1.01s").
func stoppedLine(logs string) string {
	if m := regexp.MustCompile(`creatorapi: stopped in \S+`).FindString(logs); m != "" {
		return m
	}
	return "no stop line"
}

// assertNonRoot reads the container's main process's user ids from the host.
func assertNonRoot(t *testing.T, p *Podman, name string) {
	t.Helper()
	pid := p.must(t, "inspect", "--format", "{{.State.Pid}}", name)
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "Uid:" {
			if uid, _ := strconv.Atoi(f[1]); uid == 0 || f[1] != "65532" {
				t.Fatalf("the service runs as uid %s, want 65532", f[1])
			}
			return
		}
	}
	t.Fatalf("no Uid line in /proc/%s/status", pid)
}
