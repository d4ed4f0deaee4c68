// Package container proves the image's whole lifecycle with podman: built by `make image`,
// run read-only as a non-root user, on SQLite in a named volume and as three replicas on
// one PostgreSQL and Redis. Without podman it skips loudly; under CI=true it fails.
package container

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Podman runs podman with the two settings these machines need: a containers.conf with
// no default ulimits (the sandbox refuses raising RLIMIT_NPROC) and the runc runtime
// (crun fails on this cgroup setup).
type Podman struct {
	env  []string
	run  string // this run's id: names of images, containers and volumes
	conf string // the folder of its containers.conf
}

var (
	setupOnce sync.Once
	shared    *Podman
	image     string
	setupErr  error
)

// podman returns the suite's podman with the image built (once per run), or skips
// loudly when podman is not installed; under CI that is a failure. The suite's tests run
// side by side: the replicas' run spends 30 s waiting for a killed replica's leases.
func podman(t *testing.T) (*Podman, string) {
	t.Helper()
	if _, err := exec.LookPath("podman"); err != nil {
		testenv.SkipSuite(t, "Container", "podman is not installed", "apt-get install podman runc")
	}
	t.Parallel()
	setupOnce.Do(func() { shared, image, setupErr = setup() })
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return shared, image
}

func setup() (*Podman, string, error) {
	dir, err := os.MkdirTemp("", "creatorapi-podman-")
	if err != nil {
		return nil, "", err
	}
	conf := filepath.Join(dir, "containers.conf")
	if err := os.WriteFile(conf, []byte("[containers]\ndefault_ulimits = []\n"), 0o644); err != nil {
		return nil, "", err
	}
	p := &Podman{env: append(os.Environ(), "CONTAINERS_CONF="+conf), run: randomID(), conf: dir}
	tag := "creatorapi-test:" + p.run
	root, err := filepath.Abs("../..")
	if err != nil {
		return nil, "", err
	}
	start := time.Now()
	cmd := exec.Command("make", "image", "CONTAINER_TOOL=podman", "IMAGE="+tag, "IMAGE_LATEST=")
	cmd.Dir, cmd.Env = root, p.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("make image: %v\n%s", err, out)
	}
	fmt.Fprintf(os.Stderr, "container suite: make image built %s in %s\n", tag, time.Since(start).Round(time.Second))
	return p, tag, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		_, _ = shared.cmd("rmi", "-f", image)
		_ = os.RemoveAll(shared.conf)
	}
	os.Exit(code)
}

// cmd runs podman with args and returns its standard output.
func (p *Podman) cmd(args ...string) (string, error) {
	cmd := exec.Command("podman", append([]string{"--runtime", "runc"}, args...)...)
	cmd.Env = p.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("podman %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}

// must runs podman and fails the test on error.
func (p *Podman) must(t *testing.T, args ...string) string {
	t.Helper()
	out, err := p.cmd(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Volume creates a named volume removed at cleanup.
func (p *Podman) Volume(t *testing.T, name string) string {
	t.Helper()
	name = "creatorapi-test-" + p.run + "-" + name
	p.must(t, "volume", "create", name)
	t.Cleanup(func() { _, _ = p.cmd("volume", "rm", "-f", name) })
	return name
}

// Container is one running instance of the image on the host's network.
type Container struct {
	p     *Podman
	Name  string
	API   string // http://127.0.0.1:port
	Admin string // http://127.0.0.1:port
}

// Start runs the image detached, read-only, on the host network (PostgreSQL, Redis and
// the test's receivers are on 127.0.0.1), with its listeners on free ports; env adds
// CREATORAPI_* settings, volume (optional) is mounted on /data. Removed at cleanup.
func (p *Podman) Start(t *testing.T, img, name, volume string, env map[string]string, args ...string) *Container {
	t.Helper()
	c := &Container{p: p, Name: "creatorapi-test-" + p.run + "-" + name}
	api, admin := testenv.FreePort(t), testenv.FreePort(t)
	c.API, c.Admin = "http://127.0.0.1:"+api, "http://127.0.0.1:"+admin
	// The hostname is the container's name: the lease table names instances by host.
	run := []string{"run", "-d", "--name", c.Name, "--hostname", c.Name, "--network", "host", "--read-only", "--no-healthcheck",
		"-e", "CREATORAPI_HTTP_ADDR=127.0.0.1:" + api, "-e", "CREATORAPI_ADMIN_ADDR=127.0.0.1:" + admin}
	for k, v := range env {
		run = append(run, "-e", k+"="+v)
	}
	if volume != "" {
		run = append(run, "-v", volume+":/data")
	}
	run = append(append(run, img), args...)
	p.must(t, run...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("logs of %s:\n%s", c.Name, tail(c.Logs(t), 60))
		}
		if dir := os.Getenv("CREATORAPI_CONTAINER_LOGS"); dir != "" { // keep every log, for a closer look
			_ = os.WriteFile(filepath.Join(dir, c.Name+".log"), []byte(c.Logs(t)), 0o644)
		}
		_, _ = p.cmd("rm", "-f", "-v", "-t", "0", c.Name) // -v: and its anonymous /data volume
	})
	return c
}

// Logs returns what the container wrote (stdout and stderr).
func (c *Container) Logs(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("podman", "logs", c.Name)
	cmd.Env = c.p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("podman logs %s: %v\n%s", c.Name, err, out)
	}
	return string(out)
}

// WaitReady polls /readyz until 200 and returns how long that took.
func (c *Container) WaitReady(t *testing.T, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < within {
		resp, err := http.Get(c.API + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(start)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s not ready within %s:\n%s", c.Name, within, tail(c.Logs(t), 40))
	return 0
}

// Signal sends a signal (TERM, KILL) to the container's process.
func (c *Container) Signal(t *testing.T, sig string) {
	t.Helper()
	c.p.must(t, "kill", "--signal", sig, c.Name)
}

// Wait blocks until the container exits and returns its exit code.
func (c *Container) Wait(t *testing.T, within time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	cmd := exec.CommandContext(ctx, "podman", "--runtime", "runc", "wait", c.Name)
	cmd.Env = c.p.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("podman wait %s: %v (within %s)\n%s", c.Name, err, within, tail(c.Logs(t), 40))
	}
	return strings.TrimSpace(string(out))
}

// Exec runs the image's binary inside the running container.
func (c *Container) Exec(t *testing.T, args ...string) string {
	t.Helper()
	return c.p.must(t, append([]string{"exec", c.Name, "/creatorapi"}, args...)...)
}

func randomID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func tail(s string, lines int) string {
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}
