package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

const adminToken = "bench-admin-token-0123456789abcdef0123"

// service is one `creatorapi serve` process of the built binary.
type service struct {
	cmd                *exec.Cmd
	publicAddr, opAddr string
	dataDir            string
	logs               *bytes.Buffer
}

// startService runs bin serve on databaseURL with both listeners on loopback; extra
// settings (CREATORAPI_* names) override the defaults.
func startService(bin, databaseURL string, extra map[string]string) (*service, error) {
	dataDir, err := os.MkdirTemp("", "creatorapi-bench-")
	if err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	s := &service{dataDir: dataDir, logs: &bytes.Buffer{}}
	if s.publicAddr, err = freeAddr(); err != nil {
		return nil, err
	}
	if s.opAddr, err = freeAddr(); err != nil {
		return nil, err
	}
	env := map[string]string{
		"CREATORAPI_DATA_DIR":     dataDir,
		"CREATORAPI_DATABASE_URL": databaseURL,
		"CREATORAPI_HTTP_ADDR":    s.publicAddr,
		"CREATORAPI_ADMIN_ADDR":   s.opAddr,
		"CREATORAPI_ADMIN_TOKEN":  adminToken,
		// One master key for every instance on a database (the two-instance row).
		"CREATORAPI_SECRET_KEY": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"CREATORAPI_LOG_LEVEL":  "error",
		// Lets a run compare counting stores, e.g. CREATORAPI_RATE_LIMIT_STORE=memory.
		"CREATORAPI_RATE_LIMIT_STORE": os.Getenv("CREATORAPI_RATE_LIMIT_STORE"),
	}
	for name, value := range extra {
		env[name] = value
	}
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env = os.Environ()
	for name, value := range env {
		s.cmd.Env = append(s.cmd.Env, name+"="+value)
	}
	s.cmd.Stderr = s.logs
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start service: %w", err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get("http://" + s.publicAddr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("service not healthy after a minute:\n%s", s.logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop interrupts the process (it drains, and hands back its rate-limit blocks).
func (s *service) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	_ = os.RemoveAll(s.dataDir)
}

// mallocs reads the process's heap allocations so far (go_memstats_mallocs_total on
// the operator listener's /metrics).
func (s *service) mallocs() (float64, error) {
	return scrape("http://"+s.opAddr+"/metrics", "go_memstats_mallocs_total")
}

func scrape(url, name string) (float64, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, name+" ") {
			return strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(line, name)), 64)
		}
	}
	return 0, fmt.Errorf("%s not in %s", name, url)
}

// seed creates a workspace with courses published courses through the operator API
// and returns a read:courses key whose quota the run cannot exhaust.
func (s *service) seed(courses int) (string, error) {
	ws, err := s.workspace()
	if err != nil {
		return "", err
	}
	base := "/internal/v1/workspaces/" + ws
	for i := 0; i < courses; i++ {
		var c, m struct{ ID string }
		if err := s.post(base+"/courses", map[string]string{"title": fmt.Sprintf("Course %03d", i), "description": "A course of the benchmark"}, &c); err != nil {
			return "", err
		}
		if err := s.post(base+"/courses/"+c.ID+"/modules", map[string]string{"title": "Module 1"}, &m); err != nil {
			return "", err
		}
		lesson := map[string]any{"title": "Lesson 1", "type": "video", "durationSeconds": 300}
		if err := s.post(base+"/modules/"+m.ID+"/lessons", lesson, nil); err != nil {
			return "", err
		}
		if err := s.post(base+"/courses/"+c.ID+"/publish", nil, nil); err != nil {
			return "", err
		}
	}
	return s.key(ws, 1_000_000_000)
}

func (s *service) workspace() (string, error) {
	var ws struct{ ID string }
	err := s.post("/internal/v1/workspaces", map[string]string{"name": "Bench", "ownerEmail": "bench@example.com"}, &ws)
	return ws.ID, err
}

// key creates a read:courses key of workspace ws allowed perMinute requests a minute.
func (s *service) key(ws string, perMinute int) (string, error) {
	var key struct{ Secret string }
	quota := map[string]any{"name": "bench", "scopes": []string{"read:courses"}, "perMinute": perMinute, "perDay": 1_000_000_000}
	err := s.post("/internal/v1/workspaces/"+ws+"/keys", quota, &key)
	return key.Secret, err
}

func (s *service) post(path string, body, out any) error {
	var reader *bytes.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+s.opAddr+path, http.NoBody)
	if err != nil {
		return err
	}
	if reader != nil {
		req, _ = http.NewRequest(http.MethodPost, "http://"+s.opAddr+path, reader)
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("POST %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		return fmt.Errorf("POST %s: status %d: %s", path, resp.StatusCode, b.String())
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
