package listen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// Options are listen's flags.
type Options struct {
	BaseURL, APIKey, ForwardTo string
	Events                     []string          // types to forward; empty: all
	Since                      string            // now (default), 2h, earliest or evt_...; only without a saved cursor
	Secret                     string            // whsec_...; empty: the state file's, generated once
	StateFile                  string            // empty: DefaultStateFile
	Routes                     map[string]string // type -> URL, instead of ForwardTo
	JSON                       bool              // --format json
}

// Listener forwards the feed's events to local receivers.
type Listener struct {
	Options
	Sign   Signer
	Out    io.Writer // the lines of the transcript (flushed line by line: os.Stdout is unbuffered)
	Client *http.Client
	Now    func() time.Time

	secret domainwebhooks.Secret
	state  state
	mu     sync.Mutex // Out
}

// Check validates the options before anything runs.
func (o Options) Check() error {
	if o.BaseURL == "" || o.APIKey == "" || (o.ForwardTo == "" && len(o.Routes) == 0) {
		return errors.New("--base-url, --api-key and --forward-to are required")
	}
	for _, t := range o.Events {
		if !events.IsPublic(events.Type(t)) {
			return fmt.Errorf("--events: unknown event type %q", t)
		}
	}
	for t := range o.Routes {
		if !events.IsPublic(events.Type(t)) {
			return fmt.Errorf("--route: unknown event type %q", t)
		}
	}
	if o.Secret != "" {
		if _, err := domainwebhooks.ParseSecret(o.Secret); err != nil {
			return errors.New("--secret must be a signing secret whsec_... (32 bytes or more, base64)")
		}
	}
	switch {
	case o.Since == "", o.Since == "now", o.Since == "earliest", strings.HasPrefix(o.Since, "evt_"):
	default:
		if d, err := time.ParseDuration(o.Since); err != nil || d <= 0 || d > 30*24*time.Hour {
			return errors.New("--since must be now, earliest, an event id (evt_...) or a duration such as 2h (30 days at most)")
		}
	}
	return nil
}

// farFuture asks the feed for nothing but its tail: with since beyond every event the
// page is empty and its cursor is the tail (the cursor is not bound to filters).
const farFuture = "9999-12-31T23:59:59Z"

// Run forwards events until ctx ends: the stream, or long polls where there is none;
// after a lost connection it reconnects with backoff from the last cursor a receiver
// accepted, so nothing written meanwhile is missed.
func (l *Listener) Run(ctx context.Context) error {
	if err := l.Check(); err != nil {
		return err
	}
	if l.StateFile == "" {
		l.StateFile = DefaultStateFile()
	}
	if l.Client == nil {
		l.Client = &http.Client{}
	}
	if l.Now == nil {
		l.Now = time.Now
	}
	if err := l.loadSecret(); err != nil {
		return err
	}
	l.print(map[string]any{"signingSecret": l.secret.String()}, "Your webhook signing secret is "+l.secret.String()+" (^C to quit)")
	feed := &feedClient{base: strings.TrimRight(l.BaseURL, "/"), key: l.APIKey, types: l.Events, http: l.Client}
	since, err := l.start(ctx, feed)
	if err != nil {
		return err
	}
	ready := sync.OnceFunc(func() {
		l.print(map[string]any{"ready": true, "forwardTo": l.ForwardTo, "routes": l.Routes},
			"Ready! Forwarding events to "+l.target(""))
	})
	backoff := 500 * time.Millisecond
	polling := false
	for ctx.Err() == nil {
		var err error
		if polling {
			err = l.pollOnce(ctx, feed, since)
		} else {
			err = feed.stream(ctx, l.state.Cursor, since, ready, func(ev event) error { return l.forward(ctx, ev) })
		}
		if ctx.Err() != nil {
			break
		}
		var api *apiError
		switch {
		case errors.Is(err, errNoStream), errors.As(err, &api) && (api.Status == http.StatusNotFound || api.Status == http.StatusMethodNotAllowed):
			polling = true
			ready()
			continue
		case errors.As(err, &api) && api.Reason == "cursor_expired":
			return fmt.Errorf("the saved cursor is older than the feed's retention (30 days): events may be missing; delete %s or pass another --state with --since earliest", l.StateFile)
		case errors.As(err, &api) && api.fatal():
			return fmt.Errorf("events feed: %w", err)
		case err == nil:
			backoff = 500 * time.Millisecond
			continue
		}
		wait := backoff
		if errors.As(err, &api) && api.RetryAfter > wait {
			wait = api.RetryAfter
		}
		l.print(map[string]any{"error": err.Error(), "retryInMs": wait.Milliseconds()}, fmt.Sprintf("Connection lost (%v); retrying in %v", err, wait))
		if !sleep(ctx, wait) {
			break
		}
		backoff = min(backoff*2, 10*time.Second)
	}
	return nil
}

func (l *Listener) pollOnce(ctx context.Context, feed *feedClient, since string) error {
	evs, next, err := feed.poll(ctx, l.state.Cursor, since)
	if err != nil {
		return err
	}
	for _, ev := range evs {
		if err := l.forward(ctx, ev); err != nil {
			return err
		}
	}
	if len(evs) == 0 && next != l.state.Cursor && l.state.Cursor != "" {
		l.state.Cursor = next // past filtered-out events: nothing to forward there
		return l.state.save(l.StateFile)
	}
	return nil
}

// loadSecret reads the state file, and takes --secret or the saved secret or a new one.
func (l *Listener) loadSecret() error {
	s, err := loadState(l.StateFile)
	if err != nil {
		return err
	}
	if s.BaseURL != "" && s.BaseURL != l.BaseURL {
		s.Cursor = "" // another server's cursor means nothing here
	}
	s.BaseURL = l.BaseURL
	switch {
	case l.Secret != "":
		l.secret, _ = domainwebhooks.ParseSecret(l.Secret)
	case s.Secret != "":
		if l.secret, err = domainwebhooks.ParseSecret(s.Secret); err != nil {
			return fmt.Errorf("state file %s: %w", l.StateFile, err)
		}
	default:
		if l.secret, err = newSecret(); err != nil {
			return err
		}
		s.Secret = l.secret.String()
	}
	l.state = s
	return l.state.save(l.StateFile)
}

// start decides where a run without a saved cursor begins (--since); with one, it
// resumes there.
func (l *Listener) start(ctx context.Context, feed *feedClient) (since string, err error) {
	if l.state.Cursor != "" {
		l.print(map[string]any{"resuming": true}, "Resuming after the last event your receiver accepted")
		return "", nil
	}
	switch s := l.Since; {
	case s == "" || s == "now":
		// The tail's cursor, saved at once: events written while listen reconnects come next.
		_, tail, err := feed.page(ctx, url.Values{"since": {farFuture}, "limit": {"1"}})
		if err != nil {
			return "", fmt.Errorf("events feed: %w", err)
		}
		l.state.Cursor = tail
		return "", l.state.save(l.StateFile)
	case s == "earliest":
		return "", nil
	case strings.HasPrefix(s, "evt_"):
		created, err := feed.eventByID(ctx, s)
		if err != nil {
			return "", fmt.Errorf("--since %s: %w", s, err)
		}
		return created, nil
	default:
		d, _ := time.ParseDuration(s)
		return l.Now().Add(-d).UTC().Format(time.RFC3339Nano), nil
	}
}

func (l *Listener) target(eventType string) string {
	if u, ok := l.Routes[eventType]; ok {
		return u
	}
	if eventType == "" && l.ForwardTo == "" {
		var routes []string
		for t, u := range l.Routes {
			routes = append(routes, t+" -> "+u)
		}
		return strings.Join(routes, ", ")
	}
	return l.ForwardTo
}

// stopGrace is how long a stop (^C) waits for the POST in flight: an event the receiver
// took is then saved as taken, not sent again at the next start.
const stopGrace = 10 * time.Second

// forward signs and POSTs one event until its receiver accepts it (2xx), then saves the
// cursor after it. A refusal is shown and retried with backoff: the event stays next.
func (l *Listener) forward(ctx context.Context, ev event) error {
	to := l.target(ev.Type)
	if to == "" { // only routes, none for this type
		return l.accepted(ev)
	}
	l.print(map[string]any{"event": ev.ID, "type": ev.Type, "forwardTo": to}, fmt.Sprintf("--> %s %s", ev.Type, ev.ID))
	backoff := time.Second
	for {
		status, latency, err := l.postThroughStop(ctx, to, ev)
		stopped := ctx.Err() != nil
		if err != nil && stopped {
			return ctx.Err()
		}
		if err != nil {
			l.print(map[string]any{"event": ev.ID, "error": err.Error()}, fmt.Sprintf("<-- error %v (retrying in %v)", err, backoff))
		} else {
			line := fmt.Sprintf("<-- %d %.1fms", status, float64(latency.Microseconds())/1000)
			if (status < 200 || status > 299) && !stopped {
				line += fmt.Sprintf(" (retrying in %v)", backoff)
			}
			l.print(map[string]any{"event": ev.ID, "status": status, "latencyMs": latency.Milliseconds()}, line)
			if status >= 200 && status <= 299 {
				return l.accepted(ev)
			}
		}
		if stopped || !sleep(ctx, backoff) {
			return ctx.Err()
		}
		backoff = min(backoff*2, 30*time.Second)
	}
}

func (l *Listener) accepted(ev event) error {
	if ev.Cursor == "" {
		return nil
	}
	l.state.Cursor = ev.Cursor
	return l.state.save(l.StateFile)
}

// postThroughStop is post, finished when ctx ends meanwhile unless it takes stopGrace more.
func (l *Listener) postThroughStop(ctx context.Context, to string, ev event) (int, time.Duration, error) {
	postCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(stopGrace, cancel) })()
	return l.post(postCtx, to, ev)
}

func (l *Listener) post(ctx context.Context, to string, ev event) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, to, bytes.NewReader(ev.Body))
	if err != nil {
		return 0, 0, err
	}
	req.Header = l.Sign(l.secret, Delivery{EventID: ev.ID, EventType: ev.Type, DeliveryID: deliveryID(ev.ID), Body: ev.Body, At: l.Now()})
	started := time.Now()
	resp, err := l.Client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	_ = resp.Body.Close()
	return resp.StatusCode, time.Since(started), nil
}

// print writes one line: text, or the JSON object with --format json.
func (l *Listener) print(obj map[string]any, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.JSON {
		b, _ := json.Marshal(obj)
		_, _ = l.Out.Write(append(b, '\n'))
		return
	}
	_, _ = io.WriteString(l.Out, text+"\n")
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
