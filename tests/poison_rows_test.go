package tests

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// One row that cannot be processed fails alone and visibly; it never stalls the batch
// loops (claim, record, fan-out, notices, consumers) for anyone else.

// A subscription whose sealed secret cannot be opened (here: another endpoint's sealed
// secret copied onto it, as a restored database or another master key would leave it).
// The second workspace's backlog is delivered in full; the broken endpoint's deliveries
// fail once with a reason, are not claimed again, fan-out goes on, and the operator can
// list, disable, enable and finally repair it with a rotation.
func TestWebhookPoisonSecretFailsAloneAndVisibly(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		wsA, wsB := env.CreateWorkspace(t, "Broken"), env.CreateWorkspace(t, "Healthy")
		brokenRC, okRC, otherRC := testenv.NewReceiver(t), testenv.NewReceiver(t), testenv.NewReceiver(t)
		broken, _ := env.CreateWebhook(t, wsA, brokenRC.URL, "course.published")
		donor, _ := env.CreateWebhook(t, wsA, okRC.URL, "course.published")
		other, otherSecret := env.CreateWebhook(t, wsB, otherRC.URL, "course.published")
		fanOut(t, env, syntheticEvents(wsA, 3)...)
		bEvents := syntheticEvents(wsB, 5)
		for i := range bEvents {
			bEvents[i].ID = fmt.Sprintf("evt_b%05d", i)
		}
		fanOut(t, env, bEvents...)
		if _, err := env.DB.Writer.Exec(env.DB.Rebind(`UPDATE webhook_subscriptions SET secret_sealed =
			(SELECT secret_sealed FROM webhook_subscriptions WHERE id = ?) WHERE id = ?`), donor, broken); err != nil {
			t.Fatal(err)
		}

		env.RunDue(t)
		if got := len(otherRC.Got()); got != 5 {
			t.Fatalf("second workspace: %d of 5 delivered", got)
		}
		for _, r := range otherRC.Got() {
			if _, ok := testenv.VerifySVC(r, otherSecret); !ok {
				t.Fatal("second workspace's delivery not signed with its secret")
			}
		}
		if got := len(okRC.Got()); got != 3 {
			t.Fatalf("healthy endpoint of the broken workspace: %d of 3 delivered", got)
		}
		if got := len(brokenRC.Got()); got != 0 {
			t.Fatalf("the broken endpoint received %d requests signed with nothing", got)
		}
		checkFailedUnsigned := func(want int) {
			t.Helper()
			ds := env.WebhookDeliveries(t, wsA, broken)
			if len(ds) != want {
				t.Fatalf("%d deliveries of the broken endpoint, want %d", len(ds), want)
			}
			for _, d := range ds {
				if d.Status != "failed" || d.Attempts != 1 || len(d.AttemptLog) != 1 || d.AttemptLog[0].Error == nil ||
					*d.AttemptLog[0].Error != domainwebhooks.ReasonSecretUnreadable {
					t.Fatalf("broken endpoint's delivery %+v, want failed once with the unreadable-secret reason", d)
				}
			}
		}
		checkFailedUnsigned(3)

		// Not claimed again, lease after lease.
		env.Clock.Advance(5 * time.Minute)
		env.RunDue(t)
		checkFailedUnsigned(3)

		// Fan-out of the broken workspace goes on (nothing parked), for both endpoints.
		more := syntheticEvents(wsA, 4)[3:]
		fanOut(t, env, more...)
		env.RunDue(t)
		if got := len(okRC.Got()); got != 4 {
			t.Fatalf("healthy endpoint: %d of 4 delivered after the poisoning", got)
		}
		checkFailedUnsigned(4)

		// The operator sees it, and can disable and enable it.
		var list struct{ Data []map[string]any }
		env.Admin().Get(t, "/internal/v1/workspaces/"+wsA+"/webhooks").Expect(t, http.StatusOK).Decode(t, &list)
		flagged := 0
		for _, w := range list.Data {
			if w["secretUnreadable"] == true {
				flagged++
				if w["id"] != broken {
					t.Fatalf("endpoint %v flagged, want only %s", w["id"], broken)
				}
			}
		}
		if flagged != 1 {
			t.Fatalf("list %v: the broken endpoint is not flagged", list.Data)
		}
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/disable", wsA, broken), nil).Expect(t, http.StatusOK)
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/enable", wsA, broken), nil).Expect(t, http.StatusOK)
		var sealed []byte
		if err := env.DB.Reader.Get(&sealed, env.DB.Rebind(`SELECT secret_sealed FROM webhook_subscriptions WHERE id = ?`), broken); err != nil || len(sealed) == 0 {
			t.Fatalf("disable/enable lost the sealed secret: %v", err)
		}

		// A rotation repairs it: new deliveries are signed with the new secret.
		var rotated struct{ SigningSecret string }
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/rotate-secret", wsA, broken), nil).
			Expect(t, http.StatusOK).Decode(t, &rotated)
		last := syntheticEvents(wsA, 5)[4:]
		fanOut(t, env, last...)
		env.RunDue(t)
		got := brokenRC.Got()
		if len(got) != 1 {
			t.Fatalf("repaired endpoint: %d requests, want 1", len(got))
		}
		if n, ok := testenv.VerifySVC(got[0], rotated.SigningSecret); !ok || n != 1 {
			t.Fatalf("repaired endpoint: %d signatures, valid %v (want one, by the new secret)", n, ok)
		}
		_ = other
	})
}

// A receiver answering bytes a database cannot store as text (NUL, invalid UTF-8, in the
// body or a redirect's Location) gets its attempt recorded like any other; before, the
// record failed on PostgreSQL and the delivery was sent again every lease.
func TestWebhookReceiverBytesNeverStallRecording(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		bad, good := testenv.NewReceiver(t), testenv.NewReceiver(t)
		bad.SetReply(func(n int, _ *http.Request) testenv.Reply {
			if n%2 == 0 {
				return testenv.Reply{Status: http.StatusFound, Header: map[string]string{"Location": "https://x.example/\xff"}, Body: "\x00"}
			}
			return testenv.Reply{Status: http.StatusBadRequest, Body: "bad \x00 byte \xc3\x28"}
		})
		badID, _ := env.CreateWebhook(t, ws, bad.URL, "course.published")
		env.CreateWebhook(t, ws, good.URL, "course.published")
		fanOut(t, env, syntheticEvents(ws, 4)...)
		env.RunDue(t)
		env.Clock.Advance(time.Minute) // past any lease: nothing may be sent again
		env.RunDue(t)
		if n := len(good.Got()); n != 4 {
			t.Fatalf("healthy endpoint: %d of 4", n)
		}
		if n := len(bad.Got()); n != 4 {
			t.Fatalf("odd receiver got %d requests, want 4 (each sent once, recorded, failed)", n)
		}
		for _, d := range env.WebhookDeliveries(t, ws, badID) {
			if d.Status != "failed" || len(d.AttemptLog) != 1 {
				t.Fatalf("delivery %+v, want failed after one recorded attempt", d)
			}
		}
	})
}

// A notice the mail adapter refuses with an error a database cannot store as text (a
// relay's raw reply) is marked failed and retried later; the notices behind it are sent
// in the same run. Before, the first failure to mark it ended the run, every run.
func TestWebhookNoticeThatCannotBeSentNeverStallsOthers(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		mailer := &rawReplyMailer{refuse: "refused@example.com"}
		env := testenv.StartWebhooks(t, dbURL, nil, fx.Replace(fx.Annotate(mailer, fx.As(new(command.Mailer)))))
		ws := env.CreateWorkspace(t, "Academy")
		whk, _ := env.CreateWebhook(t, ws, "https://hooks.example/x", "course.published")
		insert := env.DB.Rebind(`INSERT INTO webhook_notices (id, workspace_id, subscription_id, recipient, subject, body, created_at, next_attempt_at)
			VALUES (?, ?, ?, ?, 'Webhook endpoint disabled', 'body', ?, ?)`)
		for i, to := range []string{"refused@example.com", "owner@example.com", "second@example.com"} {
			at := testenv.Epoch.Add(time.Duration(i) * time.Second)
			if _, err := env.DB.Writer.Exec(insert, fmt.Sprintf("ntc_%d", i), ws, whk, to, at, at); err != nil {
				t.Fatal(err)
			}
		}
		env.Clock.Advance(time.Minute)
		n, err := env.App.Commands.SendNotices.Handle(context.Background())
		if err != nil {
			t.Fatalf("send notices: %v", err)
		}
		if n != 2 || mailer.sent.Load() != 2 {
			t.Fatalf("%d notices sent (%d mailed), want the 2 behind the refused one", n, mailer.sent.Load())
		}
		var lastError string
		if err := env.DB.Reader.Get(&lastError, `SELECT last_error FROM webhook_notices WHERE id = 'ntc_0'`); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(lastError, "mailbox unavailable") {
			t.Fatalf("the refused notice's error is %q", lastError)
		}
	})
}

// rawReplyMailer stands in for a mail relay that answers one recipient with raw bytes.
type rawReplyMailer struct {
	refuse string
	sent   atomic.Int32
}

func (m *rawReplyMailer) Send(_ context.Context, n domainwebhooks.Notice) error {
	if n.To == m.refuse {
		return errors.New("550 mailbox unavailable \x00 \xff\xfe")
	}
	m.sent.Add(1)
	return nil
}

// A consumer failing with an error whose text a database cannot store is parked like any
// other failure, and the events behind it are applied.
func TestConsumerFailureWithUnstorableTextIsParkedNotStalled(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		var poison atomic.Value
		poison.Store("")
		var a *eventsApp
		failing := func(ev events.Envelope) error {
			if ev.ID == poison.Load().(string) {
				return errors.New("cannot apply \x00 \xff\xfe")
			}
			return nil
		}
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option,
			withRouterConfig(func(c *router.Config) { c.Backoff = time.Millisecond }),
			withConsumer(effectsConsumer("strict", func() *sqldb.DB { return a.DB }, failing)))
		createEffects(t, a.DB)
		err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error {
			if err := a.Pub.Publish(ctx, events.New(events.StudentCreated, "org_test", map[string]string{"label": "poison"})); err != nil {
				return err
			}
			var id string
			if err := a.DB.Write(ctx).GetContext(ctx, &id, `SELECT uuid FROM watermill_events ORDER BY "offset" DESC LIMIT 1`); err != nil {
				return err
			}
			poison.Store(id) // before commit: the consumer cannot see the event yet
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		a.publish(t, 3, "after")
		eventually(t, "the events behind the failing one are applied", func() bool { return len(effectIDs(t, a.DB, "strict")) == 3 })
		parked, err := a.Ledger.Failures(context.Background(), "strict")
		if err != nil || len(parked) != 1 || parked[0].EventID != poison.Load().(string) {
			t.Fatalf("parked %+v (%v), want the failing event", parked, err)
		}
	})
}
