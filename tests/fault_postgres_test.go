package tests

import (
	"bytes"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The fault suite: PostgreSQL of the test's own is restarted (fast) and then crashed
// (immediate) while 4 writers create students. Every student whose creation was
// acknowledged is stored, and its student.created webhook reaches the receiver, on both
// event transports. Requests during the outages fail in the envelope (500 internal_error
// with Retry-After), never hang.
func TestPostgresRestartAndCrashLoseNothingAcknowledged(t *testing.T) {
	testenv.Parallel(t) // its own cluster or Pebble and free ports: nothing shared
	for _, transport := range []string{testenv.SQLTransport, testenv.NATSTransport} {
		t.Run(transport, func(t *testing.T) {
			pg := testenv.StartPostgresServer(t)
			var configure func(*compose.Config)
			if transport == testenv.NATSTransport {
				configure = testenv.UseNATSIn(t, testenv.NATSURL(t))
			}
			faultRun(t, pg, configure)
		})
	}
}

func faultRun(t *testing.T, pg *testenv.PostgresServer, configure func(*compose.Config)) {
	env := testenv.StartWebhooks(t, pg.URL, configure)
	ws := env.CreateWorkspace(t, "Academy")
	_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "write:students")
	rc := testenv.NewReceiver(t)
	env.CreateWebhook(t, ws, rc.URL, "student.created")

	var mu sync.Mutex
	var acked []string
	failed, slowest := 0, time.Duration(0)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			api := env.API(key)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				email := fmt.Sprintf("w%d-%d@example.com", w, i)
				began := time.Now()
				r := api.Post(t, "/api/v1/students", map[string]any{"email": email})
				took := time.Since(began)
				mu.Lock()
				slowest = max(slowest, took)
				switch {
				case r.Status == http.StatusCreated:
					acked = append(acked, email)
				case r.Status == http.StatusInternalServerError && r.Header.Get("Retry-After") != "":
					failed++
				default:
					t.Errorf("write %s: %d %s (Retry-After %q)", email, r.Status, r.Body, r.Header.Get("Retry-After"))
				}
				mu.Unlock()
				if r.Status != http.StatusCreated {
					time.Sleep(50 * time.Millisecond)
				}
			}
		}()
	}
	time.Sleep(time.Second)
	pg.Restart(t)
	time.Sleep(time.Second)
	pg.Crash(t)
	time.Sleep(time.Second) // down for a second
	pg.Start(t)
	time.Sleep(2 * time.Second)
	close(stop)
	wg.Wait()

	var stored []string
	if err := env.DB.Reader.Select(&stored, `SELECT email FROM students`); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range stored {
		have[e] = true
	}
	for _, e := range acked {
		if !have[e] {
			t.Errorf("student %s was acknowledged and is not stored", e)
		}
	}
	// Every acknowledged student's webhook arrives (retries after the outage included).
	deadline := time.Now().Add(60 * time.Second)
	for {
		env.RunDue(t)
		got := map[string]bool{}
		for _, r := range rc.Got() {
			for _, e := range acked {
				if !got[e] && bytes.Contains(r.Body, []byte(`"`+e+`"`)) {
					got[e] = true
				}
			}
		}
		if len(got) == len(acked) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d acknowledged students' webhooks arrived after 60 s", len(got), len(acked))
		}
		env.Clock.Advance(time.Minute) // failed attempts are retried on the schedule
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%d writes acknowledged (all stored and delivered), %d answered 500 with Retry-After during the restart and crash, slowest answer %s",
		len(acked), failed, slowest.Round(time.Millisecond))
	if len(acked) == 0 || failed == 0 {
		t.Fatalf("acknowledged %d, failed %d: the outage did not happen under load", len(acked), failed)
	}
}
