package listen

import (
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// A stop that arrives while the receiver is answering lets the answer come back: the
// event the receiver took is saved as taken, so the next start does not send it again.
func TestStopDuringAPostSavesTheEventTheReceiverTook(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		stop()                            // ^C while the receiver works
		time.Sleep(50 * time.Millisecond) // then it answers
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	secret, err := domainwebhooks.GenerateSecret(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	l := &Listener{
		Options: Options{ForwardTo: receiver.URL, StateFile: filepath.Join(t.TempDir(), "listen.json")},
		Sign:    func(domainwebhooks.Secret, Delivery) http.Header { return http.Header{} },
		Out:     io.Discard, Client: receiver.Client(), Now: time.Now, secret: secret,
	}
	if err := l.forward(ctx, event{Cursor: "c42", ID: "evt_1", Type: "student.created", Body: []byte(`{}`)}); err != nil {
		t.Fatalf("forward: %v", err)
	}
	saved, err := loadState(l.StateFile)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Cursor != "c42" {
		t.Fatalf("saved cursor %q after the receiver took the event, want c42", saved.Cursor)
	}
}
