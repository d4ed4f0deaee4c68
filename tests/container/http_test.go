package container

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

var client = &http.Client{Timeout: 15 * time.Second}

// call sends a JSON request with a bearer token and decodes a JSON answer into out
// (when not nil); it returns the status.
func call(t *testing.T, method, url, bearer string, body, out any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, url, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode
}

// expect is call that fails unless the status is want.
func expect(t *testing.T, want int, method, url, bearer string, body, out any) {
	t.Helper()
	var raw json.RawMessage
	if got := call(t, method, url, bearer, body, &raw); got != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, url, got, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatal(err)
		}
	}
}

// createKey creates an API key through the operator API and returns its secret.
func createKey(t *testing.T, admin, token, org string, perMinute, perDay int, scopes ...string) string {
	t.Helper()
	var key struct{ Secret string }
	expect(t, http.StatusCreated, http.MethodPost, admin+"/internal/v1/workspaces/"+org+"/keys", token,
		map[string]any{"name": "container test", "scopes": scopes, "perMinute": perMinute, "perDay": perDay}, &key)
	return key.Secret
}
