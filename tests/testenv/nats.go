package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// NATSURLVar names the variable that enables the NATS JetStream runs.
const NATSURLVar = "CREATORAPI_TEST_NATS_URL"

// NATSServerBinary is the nats-server the outage tests start themselves.
const NATSServerBinary = "/usr/sbin/nats-server"

// NATSURL returns CREATORAPI_TEST_NATS_URL; without it the test is skipped, loudly, and
// under CI (CI=true) it fails.
func NATSURL(t testing.TB) string {
	t.Helper()
	return serviceURL(t, NATSURLVar, "NATS JetStream", "nats://127.0.0.1:4222")
}

// UseNATS carries the service's events over the JetStream server at url, under a stream
// prefix of this test's own (deleted at cleanup), so that tests and runs sharing one
// server never see each other's events. Pass the same option to every instance of one
// deployment.
func UseNATS(t testing.TB, url string) fx.Option {
	t.Helper()
	prefix := newStreamPrefix(t, url)
	return fx.Decorate(func(c compose.Config) compose.Config {
		c.EventsBroker, c.EventsStream = url, prefix
		return c
	})
}

// NATSProcessEnv is UseNATS for `serve` processes: the variables that put them on
// CREATORAPI_TEST_NATS_URL under a stream prefix of the test's own (deleted at cleanup).
// Give the same variables to every process of one deployment.
func NATSProcessEnv(t testing.TB) []string {
	t.Helper()
	url := NATSURL(t)
	return []string{"CREATORAPI_EVENTS_BROKER=" + url, "CREATORAPI_EVENTS_STREAM=" + newStreamPrefix(t, url)}
}

// newStreamPrefix returns a stream prefix of the test's own, whose stream is deleted at cleanup.
func newStreamPrefix(t testing.TB, url string) string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	prefix := "t" + hex.EncodeToString(b[:])
	t.Cleanup(func() { DeleteStream(url, prefix+"_events") })
	return prefix
}

// DeleteStream removes a test's or a load run's stream (and with it its consumers); a server that is
// gone by then has nothing to clean.
func DeleteStream(url, name string) {
	nc, err := nats.Connect(url, nats.Timeout(2*time.Second))
	if err != nil {
		return
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = js.DeleteStream(ctx, name)
}

// NATSServer is a nats-server of the test's own, on a free port, with JetStream storage
// in the test's temp folder: Stop and Start it to take the broker away and bring it back.
type NATSServer struct {
	URL  string
	port int
	dir  string
	cmd  *exec.Cmd
}

// StartNATSServer starts a JetStream server for t, stopped at cleanup.
func StartNATSServer(t testing.TB) *NATSServer {
	t.Helper()
	if _, err := os.Stat(NATSServerBinary); err != nil {
		SkipSuite(t, "NATS outage", "no "+NATSServerBinary, "apt-get install nats-server")
	}
	port, err := PickFreePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &NATSServer{URL: fmt.Sprintf("nats://127.0.0.1:%d", port), port: port, dir: t.TempDir()}
	s.Start(t)
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Start runs the server (again) on its port and storage, and waits until it answers.
func (s *NATSServer) Start(t testing.TB) {
	t.Helper()
	s.cmd = exec.Command(NATSServerBinary, "-a", "127.0.0.1", "-p", strconv.Itoa(s.port), "-js", "-sd", s.dir)
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start nats-server: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		nc, err := nats.Connect(s.URL, nats.Timeout(time.Second))
		if err == nil {
			nc.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nats-server on %s does not answer: %v", s.URL, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop stops the server (SIGTERM, then SIGKILL after 5 s); later calls do nothing.
func (s *NATSServer) Stop(t testing.TB) {
	t.Helper()
	if s.cmd == nil {
		return
	}
	cmd := s.cmd
	s.cmd = nil
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// Transports the event suites run on.
const (
	SQLTransport  = "sql"
	NATSTransport = "nats"
)

// Transport is the event transport a subtest of EachTransport runs on.
type Transport struct {
	Name   string    // SQLTransport or NATSTransport
	Option fx.Option // pass it to every instance the subtest starts (they share one stream)
}

// NATS tells whether events travel through NATS JetStream.
func (tr Transport) NATS() bool { return tr.Name == NATSTransport }

// EachTransport runs fn as a subtest per transport of the event stream, each with a fresh
// database: the SQL transport on SQLite and PostgreSQL, and NATS JetStream on PostgreSQL
// (skipped loudly without CREATORAPI_TEST_NATS_URL, a failure under CI).
// The runs are parallel like EachDatabase's.
func EachTransport(t *testing.T, fn func(t *testing.T, databaseURL string, tr Transport)) {
	if !isSerial(t) {
		parallelTopLevel(t)
	}
	run(t, SQLTransport, func(t *testing.T) {
		EachDatabase(t, func(t *testing.T, databaseURL string) {
			fn(t, databaseURL, Transport{Name: SQLTransport, Option: fx.Options()})
		})
	})
	run(t, NATSTransport, func(t *testing.T) {
		url := NATSURL(t)
		fn(t, NewPostgresURL(t), Transport{Name: NATSTransport, Option: UseNATS(t, url)})
	})
}
