package listen

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// event is one event of the feed: its raw envelope (the bytes a delivery carries), and
// the cursor that resumes after it.
type event struct {
	Cursor string
	ID     string
	Type   string
	Body   []byte
}

// feedClient reads the events feed of the public API.
type feedClient struct {
	base, key string
	types     []string
	http      *http.Client
}

// apiError is an answer of the API other than 200.
type apiError struct {
	Status     int
	Code       string
	Reason     string
	Message    string
	RetryAfter time.Duration
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

// fatal tells whether retrying cannot help: a bad key, a missing scope, a refused
// parameter or cursor. 404/405 are not fatal: a server without the stream falls back.
func (e *apiError) fatal() bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden || e.Status == http.StatusUnprocessableEntity
}

func (f *feedClient) request(ctx context.Context, path string, q url.Values) (*http.Response, error) {
	if len(f.types) > 0 {
		q.Set("types", strings.Join(f.types, ","))
	}
	u := f.base + "/api/v1" + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+f.key)
	req.Header.Set("User-Agent", "creatorapi-listen/1.0")
	resp, err := f.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, readAPIError(resp)
	}
	return resp, nil
}

func readAPIError(resp *http.Response) error {
	var env struct {
		Error struct{ Code, Message, Reason string }
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = json.Unmarshal(b, &env)
	e := &apiError{Status: resp.StatusCode, Code: env.Error.Code, Reason: env.Error.Reason, Message: env.Error.Message}
	if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		e.RetryAfter = time.Duration(n) * time.Second
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(b))
	}
	return e
}

// stream reads the server-sent events after cursor (or from since), calling handle for
// each; opened is called once the stream answered. It returns when the stream ends.
func (f *feedClient) stream(ctx context.Context, cursor, since string, opened func(), handle func(event) error) error {
	q := url.Values{}
	if cursor != "" {
		q.Set("cursor", cursor)
	} else if since != "" {
		q.Set("since", since)
	}
	resp, err := f.request(ctx, "/events/stream", q)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return errNoStream
	}
	opened()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 8<<20) // an envelope is one data line
	var ev event
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			ev.Cursor = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.Type = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.Body = []byte(line[6:])
		case line == "" && ev.Body != nil:
			var env struct{ ID string }
			if err := json.Unmarshal(ev.Body, &env); err != nil {
				return fmt.Errorf("stream: event data: %w", err)
			}
			ev.ID = env.ID
			if err := handle(ev); err != nil {
				return err
			}
			ev = event{}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF // a stream ends only when the server ends it: reconnect
}

// errNoStream reports a server (or proxy) that does not serve the stream: listen falls
// back to long polls.
var errNoStream = errors.New("no event stream here")

// poll is one long poll: the events after cursor (or from since), and the cursor after them.
func (f *feedClient) poll(ctx context.Context, cursor, since string) ([]event, string, error) {
	q := url.Values{"wait": {"25"}, "limit": {"100"}}
	if cursor != "" {
		q.Set("cursor", cursor)
	} else if since != "" {
		q.Set("since", since)
	}
	return f.page(ctx, q)
}

// page is one GET /events with q: the events and the cursor after them.
func (f *feedClient) page(ctx context.Context, q url.Values) ([]event, string, error) {
	resp, err := f.request(ctx, "/events", q)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	var page struct {
		Data       []json.RawMessage
		Pagination struct{ Cursor string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		return nil, "", fmt.Errorf("events page: %w", err)
	}
	out := make([]event, len(page.Data))
	for i, raw := range page.Data {
		var env struct{ ID, Type string }
		if err := json.Unmarshal(raw, &env); err != nil {
			return nil, "", fmt.Errorf("events page: %w", err)
		}
		out[i] = event{ID: env.ID, Type: env.Type, Body: raw}
	}
	// A page's items carry no cursor of their own: the last one gets the page's, the
	// others resume from the page's start (a receiver may see them again after a crash).
	if n := len(out); n > 0 {
		out[n-1].Cursor = page.Pagination.Cursor
	}
	return out, page.Pagination.Cursor, nil
}

// eventByID fetches one event (for --since evt_...).
func (f *feedClient) eventByID(ctx context.Context, id string) (created string, err error) {
	types := f.types
	f.types = nil
	defer func() { f.types = types }()
	resp, err := f.request(ctx, "/events/"+url.PathEscape(id), url.Values{})
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var env struct {
		CreatedAt string `json:"created_at"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return "", fmt.Errorf("event %s: %w", id, err)
	}
	return env.CreatedAt, nil
}
