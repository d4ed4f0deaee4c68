package tests

import (
	"net/http"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The dispatcher reports how late it runs, and while the lag is over
// CREATORAPI_EVENTS_MAX_LAG the public API holds back the requests that change data
// (docs/events.md, "Pacing"). The lags are wall time: the test stamps work in the past
// with the manual clock to make the pipeline look late. (The fan-out runs in the
// publishing transaction: it cannot lag.)
func TestPacingHearsTheDispatcherAndHoldsBackWrites(t *testing.T) {
	p := startPaced(t)
	env, pacer, key := p.env, p.pacer, p.key
	env.CreateWebhook(t, p.ws, p.rc.URL, "student.created", "course.published")
	if d := pacer.Delay(); d != 0 {
		t.Fatalf("nothing lags yet: delay %v", d)
	}

	p.deliverLate(t)
	waitLag(t, pacer, 2*time.Second)
	start := time.Now()
	env.API(key).Post(t, "/api/v1/students", map[string]any{"email": "held@example.com"}).Expect(t, http.StatusCreated)
	if held := time.Since(start); held < 150*time.Millisecond {
		t.Fatalf("a write while the pipeline lags %v ran after %v; want it held back at least 150ms", pacer.Lag(), held)
	}

	time.Sleep(1100 * time.Millisecond)
	if l := pacer.Lag(); l != 0 {
		t.Fatalf("the dispatcher has been quiet for over a second: lag %v, want 0", l)
	}
	if d := pacer.Delay(); d != 0 {
		t.Fatalf("no lag: delay %v, want 0", d)
	}
}

// paced is a service that paces writes past 250 ms of lag, with a workspace, a key that
// writes students and a receiver.
type paced struct {
	env     *testenv.WebhookEnv
	pacer   *platform.Pacer
	ws, key string
	rc      *testenv.Receiver
}

func startPaced(t *testing.T) paced {
	p := paced{rc: testenv.NewReceiver(t)}
	p.env = testenv.StartWebhooks(t, testenv.NewSQLiteURL(t), func(c *compose.Config) { c.EventsMaxLag = 250 * time.Millisecond }, fx.Populate(&p.pacer))
	p.ws = p.env.CreateWorkspace(t, "Paced")
	p.key = p.env.LearningKey(t, p.ws)
	return p
}

// deliverLate writes a student whose delivery is stamped 3 s ago, and sends it now.
func (p paced) deliverLate(t *testing.T) {
	t.Helper()
	p.env.Clock.Set(time.Now().UTC().Add(-3 * time.Second))
	p.env.API(p.key).Post(t, "/api/v1/students", map[string]any{"email": "late@example.com"}).Expect(t, http.StatusCreated)
	p.env.Clock.Set(time.Now().UTC())
	p.env.RunDue(t)
}

func waitLag(t *testing.T, p *platform.Pacer, atLeast time.Duration) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for p.Lag() < atLeast {
		if time.Now().After(deadline) {
			t.Fatalf("the pipeline did not report its lag: %v, want at least %v", p.Lag(), atLeast)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A gated endpoint's deliveries wait for their receiver's pacing (a rate limit, order, a
// pause), not for the pipeline: their wait is not lag, or one workspace's ordered endpoint
// with a backlog would slow every workspace's writes (it did: 335 ms median per write at
// 200/s in webhookload).
func TestPacingIgnoresTheWaitOfGatedEndpoints(t *testing.T) {
	p := startPaced(t)
	createPacedWebhook(t, p.env, p.ws, p.rc.URL, map[string]any{"ordered": true, "events": []string{"student.created"}})
	p.deliverLate(t)
	if n := len(p.rc.Got()); n != 1 {
		t.Fatalf("%d deliveries arrived, want 1", n)
	}
	if l, d := p.pacer.Lag(), p.pacer.Delay(); l != 0 || d != 0 {
		t.Fatalf("an ordered endpoint's delivery 3 s after its event: lag %v, delay %v; want 0 (not the pipeline's lag)", l, d)
	}
}
