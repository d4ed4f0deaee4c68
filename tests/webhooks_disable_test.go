package tests

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// mailbox is an in-process SMTP server keeping every message it accepts.
type mailbox struct {
	addr string
	mu   sync.Mutex
	msgs []mailMessage
}

type mailMessage struct {
	From string
	To   []string
	Data string
}

func newMailbox(t *testing.T) *mailbox {
	t.Helper()
	mb := &mailbox{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &mailSession{box: mb}, nil }))
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mb.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return mb
}

func (mb *mailbox) messages() []mailMessage {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return append([]mailMessage(nil), mb.msgs...)
}

type mailSession struct {
	box *mailbox
	msg mailMessage
}

func (s *mailSession) Reset()        { s.msg = mailMessage{} }
func (s *mailSession) Logout() error { return nil }
func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	s.msg.From = from
	return nil
}
func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.msg.To = append(s.msg.To, to)
	return nil
}
func (s *mailSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.msg.Data = string(b)
	s.box.mu.Lock()
	s.box.msgs = append(s.box.msgs, s.msg)
	s.box.mu.Unlock()
	return nil
}

func TestWebhookAutoDisableAfterSevenDaysWithAnEmailNotice(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		mb := newMailbox(t)
		env := testenv.StartWebhooks(t, dbURL, func(c *compose.Config) {
			c.SMTPURL = "smtp://" + mb.addr + "?tls=none&from=alerts@creatorapi.test"
		})
		ws := env.CreateWorkspace(t, "Academy") // owner@example.com
		rc := testenv.NewReceiver(t)
		rc.Always(http.StatusServiceUnavailable)
		healthy := testenv.NewReceiver(t)
		whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
		env.CreateWebhook(t, ws, healthy.URL, "course.published")
		status := func() (string, map[string]any) {
			var list struct{ Data []map[string]any }
			env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws)).Expect(t, http.StatusOK).Decode(t, &list)
			for _, w := range list.Data {
				if w["id"] == whk {
					return w["status"].(string), w
				}
			}
			t.Fatalf("webhook %s not listed", whk)
			return "", nil
		}

		// One failing event a day: the endpoint fails from day 0 on.
		for day := 0; day <= 7; day++ {
			env.Clock.Set(testenv.Epoch.Add(time.Duration(day) * 24 * time.Hour))
			env.CreatePublishedCourse(t, ws, fmt.Sprintf("Course %d", day))
			env.WaitDeliveries(t, 2*(day+1))
			env.RunDue(t)
			st, w := status()
			if day < 7 && st != "enabled" {
				t.Fatalf("day %d: endpoint %s before 7 days of failure", day, st)
			}
			if day == 7 && (st != "disabled" || w["disabledReason"] != "failing" || w["failingSince"] != testenv.Epoch.Format(time.RFC3339)) {
				t.Fatalf("day 7: endpoint %v, want disabled for failing since %s", w, testenv.Epoch.Format(time.RFC3339))
			}
			if n := len(mb.messages()); day < 7 && n != 0 {
				t.Fatalf("day %d: %d notices sent early", day, n)
			}
		}
		msgs := mb.messages()
		if len(msgs) != 1 {
			t.Fatalf("%d notices, want 1", len(msgs))
		}
		m := msgs[0]
		if len(m.To) != 1 || m.To[0] != "owner@example.com" || m.From != "alerts@creatorapi.test" ||
			!strings.Contains(m.Data, "Subject: Webhook endpoint disabled") || !strings.Contains(m.Data, whk) {
			t.Fatalf("notice %+v", m)
		}
		// The healthy endpoint of the same workspace is untouched.
		if len(healthy.Got()) != 8 {
			t.Fatalf("healthy endpoint got %d deliveries, want 8", len(healthy.Got()))
		}
		// Disabled: nothing is sent, new events create no delivery, and no second notice.
		before := len(rc.Got())
		env.Clock.Set(testenv.Epoch.Add(9 * 24 * time.Hour))
		env.RunDue(t)
		if len(rc.Got()) != before || len(mb.messages()) != 1 {
			t.Fatalf("a disabled endpoint was called or notified again")
		}
		// Re-enabled, it works again from a clean slate.
		rc.Always(http.StatusOK)
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/enable", ws, whk), nil).Expect(t, http.StatusOK)
		env.RunDue(t)
		if st, w := status(); st != "enabled" || w["failingSince"] != nil {
			t.Fatalf("after enable: %v", w)
		}
		if len(rc.Got()) == before {
			t.Fatalf("pending deliveries did not resume after enabling")
		}
	})
}

func TestWebhookNoticeFallsBackToAFileAndALogLine(t *testing.T) {
	env := testenv.StartWebhooks(t, testenv.NewSQLiteURL(t), func(c *compose.Config) { c.WebhookDisableAfter = time.Hour })
	ws := env.CreateWorkspace(t, "Academy")
	rc := testenv.NewReceiver(t)
	rc.Always(http.StatusBadRequest)
	whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
	env.CreatePublishedCourse(t, ws, "One")
	env.WaitDeliveries(t, 1)
	env.RunDue(t)
	env.Clock.Advance(time.Hour)
	env.CreatePublishedCourse(t, ws, "Two")
	env.WaitDeliveries(t, 2)
	env.RunDue(t)
	files, _ := filepath.Glob(filepath.Join(env.Config.DataDir, "mail", "*.eml"))
	if len(files) != 1 {
		t.Fatalf("%d notice files in the data folder, want 1", len(files))
	}
	raw, _ := os.ReadFile(files[0])
	if !strings.Contains(string(raw), "To: owner@example.com") || !strings.Contains(string(raw), whk) {
		t.Fatalf("notice file:\n%s", raw)
	}
}
