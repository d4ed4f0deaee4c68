package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

const adminToken = "webhookload-admin-token-0123456789abcdef"

// service is the built binary running `serve` on loopback ports of its own.
type service struct {
	bin, dataDir, dbURL string
	env                 []string // extra variables: the transport, the partitions
	publicAddr          string
	adminAddr           string
	cmd                 *exec.Cmd
	log                 *os.File
}

func freeAddr() (string, error) {
	port, err := testenv.PickFreePort()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("127.0.0.1:%d", port), nil
}

func newService(bin, dataDir, dbURL string, env []string) (*service, error) {
	pub, err := freeAddr()
	if err != nil {
		return nil, err
	}
	adm, err := freeAddr()
	if err != nil {
		return nil, err
	}
	return &service{bin: bin, dataDir: dataDir, dbURL: dbURL, env: env, publicAddr: pub, adminAddr: adm}, nil
}

func (s *service) start() error {
	if err := os.MkdirAll(s.dataDir, 0o700); err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(s.dataDir, "service.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	s.log = log
	s.cmd = exec.Command(s.bin, "serve")
	s.cmd.Env = append(os.Environ(),
		"CREATORAPI_DATA_DIR="+s.dataDir,
		"CREATORAPI_DATABASE_URL="+s.dbURL,
		"CREATORAPI_HTTP_ADDR="+s.publicAddr,
		"CREATORAPI_ADMIN_ADDR="+s.adminAddr,
		"CREATORAPI_ADMIN_TOKEN="+adminToken,
		"CREATORAPI_SECRET_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true",
		"CREATORAPI_LOG_LEVEL=warn",
		"CREATORAPI_PPROF=true",
	)
	s.cmd.Env = append(s.cmd.Env, s.env...)
	s.cmd.Stdout, s.cmd.Stderr = log, log
	if err := s.cmd.Start(); err != nil {
		return err
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + s.publicAddr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.stop()
	return fmt.Errorf("service not ready after 60 s (log: %s)", log.Name())
}

func (s *service) pid() int { return s.cmd.Process.Pid }

func (s *service) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	s.log.Close()
	s.cmd = nil
}

// admin calls the operator API and decodes the JSON answer into out.
func (s *service) admin(ctx context.Context, method, path string, body, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, method, "http://"+s.adminAddr+"/internal/v1"+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}

// workspace is what a run needs: a key that may create students, and the signing
// secret of one endpoint subscribed to student.created at the receiver.
type workspace struct {
	id, key, signingSecret string
}

// setup creates n workspaces, each with its endpoint at receiverURL/<index>, so that the
// receiver knows which secret signs what it gets.
// Workspaces that accept refuses are left unused (it keeps them even over the partitions).
func (s *service) setup(ctx context.Context, receiverURL string, n int, accept func(id string) bool, endpoint map[string]any) ([]workspace, error) {
	out := make([]workspace, n)
	for i, tries := 0, 0; i < n; tries++ {
		var ws struct{ ID string }
		if err := s.admin(ctx, "POST", "/workspaces", map[string]any{"name": fmt.Sprintf("Load %d", tries), "ownerEmail": "owner@example.com"}, &ws); err != nil {
			return nil, err
		}
		if tries < 50*n && !accept(ws.ID) {
			continue
		}
		var key struct{ Secret string }
		if err := s.admin(ctx, "POST", "/workspaces/"+ws.ID+"/keys", map[string]any{
			"name": "load", "scopes": []string{"write:students"}, "perMinute": 1_000_000_000, "perDay": 1_000_000_000,
		}, &key); err != nil {
			return nil, err
		}
		var hook struct{ SigningSecret string }
		body := map[string]any{"url": fmt.Sprintf("%s/%d", receiverURL, i), "events": []string{"student.created"}}
		for k, v := range endpoint {
			body[k] = v
		}
		if err := s.admin(ctx, "POST", "/workspaces/"+ws.ID+"/webhooks", body, &hook); err != nil {
			return nil, err
		}
		out[i] = workspace{id: ws.ID, key: key.Secret, signingSecret: hook.SigningSecret}
		i++
	}
	return out, nil
}

// profile fetches a CPU profile of the service over dur from the operator listener's
// /debug/pprof into file.
func (s *service) profile(ctx context.Context, dur time.Duration, file string) error {
	url := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", s.adminAddr, int(dur.Seconds()))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("pprof: %s", resp.Status)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}

// logPath is the instance's log file (stdout and stderr).
func (s *service) logPath() string { return filepath.Join(s.dataDir, "service.log") }
