// Package trigger is the client side of `creatorapi trigger`: it asks a running service,
// through the public API only, to produce one event in the caller's sandbox.
package trigger

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Path is the test helper's route under the base URL.
const Path = "/api/v1/test_helpers/events"

// Result is the service's answer: the type and the id of the resource whose change
// produced the event.
type Result struct {
	Type       string `json:"type"`
	Livemode   bool   `json:"livemode"`
	ResourceID string `json:"resourceId"`
}

// APIError is a refusal in the API's error envelope (403 for a live key, 422 for an
// unknown type...).
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

// Event posts {"type": typ} with an Idempotency-Key, so a retried call after a lost
// answer does not trigger twice.
func Event(ctx context.Context, client *http.Client, baseURL, apiKey, typ string) (Result, error) {
	body, err := json.Marshal(map[string]string{"type": typ})
	if err != nil {
		return Result{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(baseURL, "/")+Path, bytes.NewReader(body))
	if err != nil {
		return Result{}, fmt.Errorf("trigger: %w", err)
	}
	var key [16]byte
	if _, err := rand.Read(key[:]); err != nil {
		return Result{}, fmt.Errorf("idempotency key: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", hex.EncodeToString(key[:]))
	resp, err := client.Do(req)
	if err != nil {
		return Result{}, fmt.Errorf("trigger %s: %w", typ, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return Result{}, fmt.Errorf("read answer: %w", err)
	}
	if resp.StatusCode != http.StatusCreated {
		var env struct {
			Error struct{ Code, Message string }
		}
		if json.Unmarshal(raw, &env) != nil || env.Error.Code == "" {
			return Result{}, &APIError{Status: resp.StatusCode, Code: "unexpected", Message: strings.TrimSpace(string(raw))}
		}
		return Result{}, &APIError{Status: resp.StatusCode, Code: env.Error.Code, Message: env.Error.Message}
	}
	var res Result
	if err := json.Unmarshal(raw, &res); err != nil {
		return Result{}, fmt.Errorf("decode answer: %w", err)
	}
	return res, nil
}
