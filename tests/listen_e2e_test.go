package tests

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// listenProcess is a running `creatorapi listen` with its output lines.
type listenProcess struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	ready chan struct{}
}

func startListen(t *testing.T, bin string, args ...string) *listenProcess {
	t.Helper()
	p := &listenProcess{cmd: exec.Command(bin, append([]string{"listen"}, args...)...), ready: make(chan struct{})}
	out, _ := p.cmd.StdoutPipe() // a pipe: the ready line must reach it unbuffered
	var stderr bytes.Buffer
	p.cmd.Stderr = &stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		var once sync.Once
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
			if strings.HasPrefix(sc.Text(), "Ready!") || strings.HasPrefix(sc.Text(), `{"forwardTo"`) && strings.Contains(sc.Text(), `"ready":true`) {
				once.Do(func() { close(p.ready) })
			}
		}
	}()
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	select {
	case <-p.ready:
	case <-time.After(20 * time.Second):
		t.Fatalf("listen not ready: %v\n%s", p.output(), stderr.String())
	}
	return p
}

func (p *listenProcess) output() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

func (p *listenProcess) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("listen exited with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("listen did not stop on SIGINT")
	}
}

// `creatorapi listen` forwards the feed to a real receiver, signed with the secret it
// printed; it survives its own restart and the server's restart, and events written
// while it was away all arrive, once each.
func TestListenForwardsSignedEventsAcrossRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		bin := testenv.Binary(t)
		apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
		env := append(os.Environ(), "CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+dbURL,
			"CREATORAPI_HTTP_ADDR="+apiAddr, "CREATORAPI_ADMIN_ADDR="+adminAddr, "CREATORAPI_ADMIN_TOKEN=listen-token-0123456789abcdef0123")
		cli := binaryCLI(t, bin, env)
		var ws struct{ ID string }
		mustJSON(t, cli("workspace", "create", "--name", "Listen Academy", "--owner-email", "owner@example.com"), &ws)
		var key struct{ Secret string }
		mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", "listen", "--scopes", "read:events,write:students", "--per-minute", "100000", "--per-day", "1000000"), &key)

		var server *exec.Cmd
		var logs bytes.Buffer
		startServer := func() {
			server = exec.Command(bin, "serve")
			server.Env = env
			server.Stderr = &logs
			if err := server.Start(); err != nil {
				t.Fatal(err)
			}
			waitHealthy(t, "http://"+apiAddr+"/healthz", &logs)
		}
		stopServer := func() {
			_ = server.Process.Signal(os.Interrupt)
			_ = server.Wait()
		}
		startServer()
		t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
		base := "http://" + apiAddr
		n := 0
		write := func(count int) {
			for range count {
				n++
				body := fmt.Sprintf(`{"email":"listen%d@example.com"}`, n)
				req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/students", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+key.Secret)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusCreated {
					t.Fatalf("create student: %d", resp.StatusCode)
				}
			}
		}

		receiver := testenv.NewReceiver(t)
		state := filepath.Join(t.TempDir(), "listen.json")
		args := []string{"--base-url", base, "--api-key", key.Secret, "--forward-to", receiver.URL + "/hook", "--state", state, "--events", "student.created"}
		l := startListen(t, bin, args...)
		secret := regexp.MustCompile(`whsec_[A-Za-z0-9+/=]+`).FindString(strings.Join(l.output(), "\n"))
		if secret == "" {
			t.Fatalf("no signing secret printed before ready: %v", l.output())
		}
		waitFor := func(total int) {
			t.Helper()
			deadline := time.Now().Add(30 * time.Second)
			for len(receiver.Got()) < total && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if got := len(receiver.Got()); got != total {
				t.Fatalf("receiver got %d events, want %d\nlisten: %v\nserver: %s", got, total, l.output(), logs.String())
			}
		}

		write(3)
		waitFor(3)
		// Restart listen; events written while it is away arrive when it is back.
		l.stop(t)
		write(3)
		l = startListen(t, bin, args...)
		waitFor(6)
		// Restart the server under a running listen: it reconnects and goes on.
		stopServer()
		startServer()
		write(3)
		waitFor(9)
		// Both away: listen stopped, the server restarted, events written, listen back.
		l.stop(t)
		stopServer()
		startServer()
		write(3)
		l = startListen(t, bin, args...)
		waitFor(12)
		time.Sleep(500 * time.Millisecond) // nothing more comes (no repeat)

		seen := map[string]bool{}
		for i, r := range receiver.Got() {
			if _, ok := testenv.VerifySVC(r, secret); !ok {
				t.Fatalf("delivery %d: X-SVC-Signature does not verify with the printed secret", i)
			}
			if _, ok := testenv.VerifyStandard(r, secret); !ok {
				t.Fatalf("delivery %d: webhook-signature does not verify", i)
			}
			id := r.Header.Get("webhook-id")
			if seen[id] || r.Header.Get("X-SVC-Event") != "student.created" || !strings.HasPrefix(r.Header.Get("X-SVC-Delivery"), "evd_") {
				t.Fatalf("delivery %d: %v (seen before: %v)", i, r.Header, seen[id])
			}
			seen[id] = true
		}
		if len(receiver.Got()) != 12 {
			t.Fatalf("receiver got %d, want 12", len(receiver.Got()))
		}
		transcript := l.output()
		if !slicesContainsPrefix(transcript, "--> student.created evt_") || !slicesContainsPrefix(transcript, "<-- 200 ") {
			t.Fatalf("transcript: %v", transcript)
		}
		t.Logf("listen transcript:\n%s", strings.Join(transcript, "\n"))
	})
}

func slicesContainsPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// `creatorapi sign` prints a request whose signatures verify with the secret given, for
// the catalogue's example and for data of one's own.
func TestSignPrintsAVerifiableDelivery(t *testing.T) {
	bin := testenv.Binary(t)
	secret := "whsec_" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	dataFile := filepath.Join(t.TempDir(), "data.json")
	if err := os.WriteFile(dataFile, []byte(`{ "id": "stu_mine", "email": "me@example.com" }`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"sign", "--secret", secret, "--type", "order.paid", "--at", "1700000000"},
		{"sign", "--secret", secret, "--type", "student.created", "--data", dataFile},
	} {
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(out)))
		if err != nil {
			t.Fatalf("not an HTTP request: %v\n%s", err, out)
		}
		body, _ := io.ReadAll(req.Body)
		got := testenv.Received{Header: req.Header, Body: body}
		if _, ok := testenv.VerifySVC(got, secret); !ok {
			t.Fatalf("%v: X-SVC-Signature does not verify:\n%s", args, out)
		}
		if _, ok := testenv.VerifyStandard(got, secret); !ok {
			t.Fatalf("%v: webhook-signature does not verify", args)
		}
		if req.Header.Get("X-SVC-Event") != args[4] || !bytes.Contains(body, []byte(`"type":"`+args[4]+`"`)) {
			t.Fatalf("%v: %v %s", args, req.Header, body)
		}
		// Tampered, it no longer verifies.
		got.Body = append([]byte(nil), body...)
		got.Body[len(body)/2] ^= 1
		if _, ok := testenv.VerifySVC(got, secret); ok {
			t.Fatal("a tampered body still verifies")
		}
	}
	out, _ := exec.Command(bin, "sign", "--secret", secret, "--type", "order.paid", "--at", "1700000000").Output()
	if !bytes.Contains(out, []byte("t=1700000000,v1=")) {
		t.Fatalf("--at: %s", out)
	}
	if err := exec.Command(bin, "sign", "--secret", secret, "--type", "nope").Run(); err == nil {
		t.Fatal("an unknown type was signed")
	}
}
