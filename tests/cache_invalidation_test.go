package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// cacheInstance is one `creatorapi serve` of the built binary.
type cacheInstance struct {
	api, admin string
	logs       *bytes.Buffer
}

const cacheAdminToken = "cache-token-0123456789abcdef0123456789"

// startServe starts the binary with env plus extra, and waits until it serves.
func startServe(t *testing.T, bin string, env []string, extra ...string) cacheInstance {
	t.Helper()
	inst := cacheInstance{api: testenv.FreeAddr(t), admin: testenv.FreeAddr(t), logs: &bytes.Buffer{}}
	server := exec.Command(bin, "serve")
	server.Env = append(append(append([]string{}, env...), extra...),
		"CREATORAPI_HTTP_ADDR="+inst.api, "CREATORAPI_ADMIN_ADDR="+inst.admin)
	server.Stderr = inst.logs
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
	waitHealthy(t, "http://"+inst.api+"/healthz", inst.logs)
	return inst
}

// status answers the status of GET path on the public API with secret.
func (i cacheInstance) status(t *testing.T, secret, path string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+i.api+path, nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// courses lists the published courses' ids as secret sees them.
func (i cacheInstance) courses(t *testing.T, secret string) []string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+i.api+"/api/v1/courses?limit=100", nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var list courseList
	decodeResp(t, resp, http.StatusOK, &list)
	ids := make([]string, 0, len(list.Data))
	for _, c := range list.Data {
		ids = append(ids, c.ID)
	}
	return ids
}

// adminPost calls the operator API and decodes into out.
func (i cacheInstance) adminPost(t *testing.T, path string, body any, status int, out any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, "http://"+i.admin+"/internal/v1"+path, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+cacheAdminToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	decodeResp(t, resp, status, out)
}

// waitTrusted waits until the instance serves from its caches (creatorapi_cache_trusted 1),
// so that what follows proves an invalidation, not a cache that was never used.
func (i cacheInstance) waitTrusted(t *testing.T, want bool) {
	t.Helper()
	line := "creatorapi_cache_trusted 0"
	if want {
		line = "creatorapi_cache_trusted 1"
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodGet, "http://"+i.admin+"/metrics", nil)
		req.Header.Set("Authorization", "Bearer "+cacheAdminToken)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			resp.Body.Close()
			if strings.Contains(b.String(), line) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance never reported %q\n%s", line, i.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func cacheEnv(t *testing.T, dbURL string) []string {
	return append(os.Environ(),
		"CREATORAPI_DATA_DIR="+t.TempDir(),
		"CREATORAPI_DATABASE_URL="+dbURL,
		"CREATORAPI_ADMIN_TOKEN="+cacheAdminToken,
	)
}

// Keys and catalogue versions are served from memory, and a change made by another process
// is seen on the very next request: 20 keys, each used through every instance (cached),
// revoked with the CLI (another process), then refused by every instance at once; and a
// course published through one instance's operator API is listed at once by the other.
// PostgreSQL: two built binaries on one database (LISTEN/NOTIFY, acknowledged before the
// CLI returns). SQLite: one binary, and the CLI writing the same file (data_version).
func TestCachedKeysAndCatalogueFollowOtherProcessesAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		bin := testenv.Binary(t)
		env := cacheEnv(t, dbURL)
		cli := binaryCLI(t, bin, env)
		var ws struct{ ID string }
		mustJSON(t, cli("workspace", "create", "--name", "Cache Academy", "--owner-email", "owner@example.com"), &ws)
		instances := []cacheInstance{startServe(t, bin, env)}
		if strings.HasPrefix(dbURL, "postgres") {
			testenv.ReserveInstances(t, 1)
			instances = append(instances, startServe(t, bin, env))
		}
		for _, inst := range instances {
			inst.waitTrusted(t, true)
		}

		refused := 0
		for round := range 20 {
			var key struct{ ID, Secret string }
			mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", fmt.Sprintf("k%d", round), "--scopes", "read:courses"), &key)
			for _, inst := range instances {
				for range 2 { // the second is served from memory
					if got := inst.status(t, key.Secret, "/api/v1/courses"); got != http.StatusOK {
						t.Fatalf("round %d: fresh key answered %d", round, got)
					}
				}
			}
			cli("key", "revoke", "--workspace", ws.ID, key.ID)
			ok := true
			for n, inst := range instances {
				if got := inst.status(t, key.Secret, "/api/v1/courses"); got != http.StatusUnauthorized {
					t.Errorf("round %d: instance %d answered %d to the key revoked by the CLI, want 401", round, n, got)
					ok = false
				}
			}
			if ok {
				refused++
			}
		}
		if refused != 20 {
			t.Fatalf("revoked keys refused on the next request in %d of 20 rounds", refused)
		}

		var key struct{ Secret string }
		mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", "reader", "--scopes", "read:courses"), &key)
		writer, reader := instances[0], instances[len(instances)-1]
		var want []string
		for round := range 5 {
			if got := reader.courses(t, key.Secret); len(got) != len(want) { // cached version
				t.Fatalf("round %d: %d courses listed, want %d", round, len(got), len(want))
			}
			var course struct{ ID string }
			writer.adminPost(t, "/workspaces/"+ws.ID+"/courses", map[string]string{"title": fmt.Sprintf("Course %d", round)}, http.StatusCreated, &course)
			writer.adminPost(t, "/workspaces/"+ws.ID+"/courses/"+course.ID+"/publish", nil, http.StatusOK, nil)
			want = append(want, course.ID)
			if got := reader.courses(t, key.Secret); len(got) != len(want) || got[0] != course.ID {
				t.Fatalf("round %d: the other instance lists %v right after the publish returned, want %v first of %d", round, got, course.ID, len(want))
			}
		}
	})
}

// An instance whose invalidation channel goes silent (its LISTEN connection behind a
// partition, its pool still reaching the database) stops trusting its cache within a second,
// so a revocation it never hears is still refused on its next request; the CLI's revocation
// waits for that instance's acknowledgement at most sqldb.AckWait, then returns.
func TestCacheCutFromItsChannelStopsTrustingIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.Parallel(t) // it starts serve processes, not Start: without the mark it ran in the serial phase
	dbURL := testenv.NewPostgresURL(t)
	bin := testenv.Binary(t)
	env := cacheEnv(t, dbURL)
	cli := binaryCLI(t, bin, env)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewTCPProxy(t, u.Host)
	u.Host = proxy.Addr
	var ws struct{ ID string }
	mustJSON(t, cli("workspace", "create", "--name", "Cut Academy", "--owner-email", "owner@example.com"), &ws)
	testenv.ReserveInstances(t, 1)
	a := startServe(t, bin, env)
	b := startServe(t, bin, env, "CREATORAPI_CACHE_LISTEN_URL="+u.String())
	a.waitTrusted(t, true)
	b.waitTrusted(t, true)

	var key struct{ ID, Secret string }
	mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", "cut", "--scopes", "read:courses"), &key)
	var reader struct{ Secret string }
	mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", "reader", "--scopes", "read:courses"), &reader)
	for range 2 {
		if got := b.status(t, key.Secret, "/api/v1/courses"); got != http.StatusOK {
			t.Fatalf("fresh key answered %d", got)
		}
	}
	if got := b.courses(t, reader.Secret); len(got) != 0 {
		t.Fatalf("%d courses before any was created", len(got))
	}

	proxy.Blackhole() // b hears nothing any more, and says so to nobody
	b.waitTrusted(t, false)
	start := time.Now()
	cli("key", "revoke", "--workspace", ws.ID, key.ID)
	took := time.Since(start)
	if got := b.status(t, key.Secret, "/api/v1/courses"); got != http.StatusUnauthorized {
		t.Fatalf("the instance cut from its channel answered %d to a revoked key, want 401", got)
	}
	if got := a.status(t, key.Secret, "/api/v1/courses"); got != http.StatusUnauthorized {
		t.Fatalf("the connected instance answered %d to a revoked key, want 401", got)
	}
	if took < time.Second {
		t.Errorf("the revocation returned after %v without b's acknowledgement; it must wait for it up to sqldb.AckWait", took)
	}
	var course struct{ ID string }
	a.adminPost(t, "/workspaces/"+ws.ID+"/courses", map[string]string{"title": "While cut"}, http.StatusCreated, &course)
	a.adminPost(t, "/workspaces/"+ws.ID+"/courses/"+course.ID+"/publish", nil, http.StatusOK, nil)
	if got := b.courses(t, reader.Secret); len(got) != 1 || got[0] != course.ID {
		t.Fatalf("the instance cut from its channel lists %v, want [%s]", got, course.ID)
	}

	proxy.Restore() // b reconnects, empties its caches and trusts them again
	b.waitTrusted(t, true)
	if got := b.status(t, key.Secret, "/api/v1/courses"); got != http.StatusUnauthorized {
		t.Fatalf("after reconnecting, b answered %d to the revoked key", got)
	}
}
