package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/google/go-cmp/cmp"
)

// Response is a buffered HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode unmarshals the body into v, failing the test on error.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %d response %q: %v", r.Status, r.Body, err)
	}
}

// JSON returns the body as a generic object.
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.Decode(t, &m)
	return m
}

// ErrorCode returns error.code of an error envelope, failing when the body is not one.
func (r Response) ErrorCode(t testing.TB) string {
	t.Helper()
	code, ok := r.envelopeCode()
	if !ok {
		t.Fatalf("status %d: body is not an error envelope: %s", r.Status, r.Body)
	}
	return code
}

// envelopeCode is error.code of the body, and whether the body is an error envelope
// (a code and a message).
func (r Response) envelopeCode() (string, bool) {
	var env struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(r.Body, &env) != nil || env.Error == nil || env.Error.Code == "" || env.Error.Message == "" {
		return "", false
	}
	return env.Error.Code, true
}

// Expect fails unless the status is want.
func (r Response) Expect(t testing.TB, want int) Response {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d; body %s", r.Status, want, r.Body)
	}
	return r
}

// ExpectError fails unless the response is an error envelope with status and code.
func (r Response) ExpectError(t testing.TB, status int, code string) Response {
	t.Helper()
	type answer struct {
		Status   int
		Code     string
		Envelope bool
	}
	gotCode, envelope := r.envelopeCode()
	if diff := cmp.Diff(answer{status, code, true}, answer{r.Status, gotCode, envelope}); diff != "" {
		t.Fatalf("error answer (-want +got):\n%sbody %s", diff, r.Body)
	}
	return r
}

// Client sends requests to one fiber app with one bearer token.
type Client struct {
	app    *fiber.App
	bearer string
	header http.Header
}

// API is a client of the public API with key (empty: no Authorization header).
func (e *Env) API(key string) Client { return Client{app: e.Public.App, bearer: key} }

// Admin is a client of the operator API with the operator token.
func (e *Env) Admin() Client { return Client{app: e.Operator.App, bearer: AdminToken} }

// WithHeader returns a client that also sends name: value.
func (c Client) WithHeader(name, value string) Client {
	h := c.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set(name, value)
	c.header = h
	return c
}

// AddHeader returns a client that also sends name: value, after the values of name it
// sends already (a repeated header).
func (c Client) AddHeader(name, value string) Client {
	h := c.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(name, value)
	c.header = h
	return c
}

// Do sends a request. body is nil, a string or []byte sent as is, or a value sent as JSON.
func (c Client) Do(t testing.TB, method, path string, body any) Response {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatalf("encode body: %v", err)
		}
	}
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, reader)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	for name, values := range c.header {
		req.Header[name] = values
	}
	resp, err := c.app.Test(req, -1)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	respBody, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	out := Response{Status: resp.StatusCode, Header: resp.Header, Body: respBody}
	observeResponse(t, req, raw, out)
	return out
}

// Get sends GET path.
func (c Client) Get(t testing.TB, path string) Response { return c.Do(t, http.MethodGet, path, nil) }

// Post sends POST path with body.
func (c Client) Post(t testing.TB, path string, body any) Response {
	return c.Do(t, http.MethodPost, path, body)
}
