package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// startFeedListening starts the service on dbURL with its real listeners and returns it
// and the public base URL.
func startFeedListening(t *testing.T, dbURL string) (*testenv.Env, string) {
	t.Helper()
	public, admin := testenv.FreeAddr(t), testenv.FreeAddr(t)
	env := testenv.Start(t, dbURL,
		fx.Decorate(func(cfg compose.Config) compose.Config { cfg.HTTPAddr, cfg.AdminAddr = public, admin; return cfg }),
		compose.Listen())
	return env, "http://" + public
}

func feedRequest(t *testing.T, ctx context.Context, key, url string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp
}

// A long poll answers as soon as an event commits, a stream sends it as soon as it
// commits (both within a second), and a stopping server ends the stream at once.
func TestEventsFeedLongPollAndStreamDeliverWithinASecond(t *testing.T) {
	testenv.Alone(t, "bounds a long poll's answer to a second after the commit: beside the parallel phase it took 1.1-1.4 s")
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env, base := startFeedListening(t, dbURL)
		ws := env.CreateWorkspace(t, "Waiting")
		_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "read:events")
		tail := *getFeed(t, env.API(key), "").Pagination.Cursor // no public event yet

		// Long poll: held while nothing comes, answered when an event commits.
		type answer struct {
			page feedPage
			at   time.Time
		}
		answers := make(chan answer, 1)
		go func() {
			resp := feedRequest(t, context.Background(), key, base+"/api/v1/events?wait=20&cursor="+tail)
			defer resp.Body.Close()
			var p feedPage
			_ = json.NewDecoder(resp.Body).Decode(&p)
			answers <- answer{p, time.Now()}
		}()
		time.Sleep(700 * time.Millisecond)
		select {
		case a := <-answers:
			t.Fatalf("long poll answered before any event: %+v", a.page)
		default:
		}
		committed := time.Now()
		env.CreateStudent(t, ws, "poll@example.com")
		a := <-answers
		if len(a.page.Data) != 1 || a.page.Data[0].Type != events.StudentCreated {
			t.Fatalf("long poll answered %+v", a.page.Data)
		}
		if lag := a.at.Sub(committed); lag > time.Second {
			t.Fatalf("long poll answered %v after the commit", lag)
		}

		// Stream: resumes after the long poll's event, delivers the next within a second.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		resp := feedRequest(t, ctx, key, base+"/api/v1/events/stream?cursor="+*a.page.Pagination.Cursor)
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		type sse struct {
			id, event, data string
			at              time.Time
		}
		got := make(chan sse, 10)
		ended := make(chan time.Time, 1)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			var cur sse
			for sc.Scan() {
				line := sc.Text()
				switch {
				case strings.HasPrefix(line, "id: "):
					cur.id = strings.TrimPrefix(line, "id: ")
				case strings.HasPrefix(line, "event: "):
					cur.event = strings.TrimPrefix(line, "event: ")
				case strings.HasPrefix(line, "data: "):
					cur.data = strings.TrimPrefix(line, "data: ")
				case line == "" && cur.data != "":
					cur.at = time.Now()
					got <- cur
					cur = sse{}
				}
			}
			ended <- time.Now()
		}()
		time.Sleep(300 * time.Millisecond)
		committed = time.Now()
		student := env.CreateStudent(t, ws, "stream@example.com")
		select {
		case ev := <-got:
			var envelope events.Envelope
			if err := json.Unmarshal([]byte(ev.data), &envelope); err != nil || ev.event != "student.created" || ev.id == "" || !strings.Contains(ev.data, student) {
				t.Fatalf("stream event %+v (%v)", ev, err)
			}
			if lag := ev.at.Sub(committed); lag > time.Second {
				t.Fatalf("stream delivered %v after the commit", lag)
			}
			// Its id resumes right after it: nothing between.
			p := getFeed(t, env.API(key), "cursor="+ev.id)
			if len(p.Data) != 0 {
				t.Fatalf("after the stream's id: %v", feedIDs(p.Data))
			}
		case <-time.After(10 * time.Second):
			t.Fatal("stream delivered nothing")
		}

		// Stopping the server ends the stream at once instead of holding up the stop.
		stopping := time.Now()
		env.Stop(t)
		select {
		case at := <-ended:
			if at.Sub(stopping) > 5*time.Second {
				t.Fatalf("stream ended %v after the stop began", at.Sub(stopping))
			}
		case <-time.After(10 * time.Second):
			t.Fatal("stream still open after the server stopped")
		}
	})
}
