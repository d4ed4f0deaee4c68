package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

const adminToken = "bench-admin-token-0123456789abcdef0123"

// service is the real service, started from the fx graph with its listeners.
type service struct {
	app                *fx.App
	publicAddr, opAddr string
	dataDir            string
}

// startService boots creatorapi on databaseURL with both listeners on loopback; extra
// settings (CREATORAPI_* names) override the defaults.
func startService(databaseURL string, extra map[string]string) (*service, error) {
	dataDir, err := os.MkdirTemp("", "creatorapi-bench-")
	if err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	s := &service{dataDir: dataDir}
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
		"CREATORAPI_LOG_LEVEL":    "error",
		// Lets a run compare counting stores, e.g. CREATORAPI_RATE_LIMIT_STORE=memory.
		"CREATORAPI_RATE_LIMIT_STORE": os.Getenv("CREATORAPI_RATE_LIMIT_STORE"),
	}
	for name, value := range extra {
		env[name] = value
	}
	cfg, err := compose.LoadConfig(func(name string) string { return env[name] })
	if err != nil {
		return nil, err
	}
	s.app = fx.New(compose.Service(cfg))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.app.Start(ctx); err != nil {
		return nil, fmt.Errorf("start service: %w", err)
	}
	return s, nil
}

func (s *service) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = s.app.Stop(ctx)
	_ = os.RemoveAll(s.dataDir)
}

// seed creates a workspace with courses published courses through the operator API
// and returns a read:courses key whose quota the run cannot exhaust.
func (s *service) seed(courses int) (string, error) {
	var ws, key struct{ ID, Secret string }
	if err := s.post("/internal/v1/workspaces", map[string]string{"name": "Bench", "ownerEmail": "bench@example.com"}, &ws); err != nil {
		return "", err
	}
	base := "/internal/v1/workspaces/" + ws.ID
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
	quota := map[string]any{"name": "bench", "scopes": []string{"read:courses"}, "perMinute": 1_000_000_000, "perDay": 1_000_000_000}
	if err := s.post(base+"/keys", quota, &key); err != nil {
		return "", err
	}
	return key.Secret, nil
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
