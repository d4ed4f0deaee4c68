package background_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/background"
)

// sessions plays a server that drops the first session and refuses the two connection
// attempts after it, recording what the worker did.
type sessions struct {
	mu      sync.Mutex
	log     []string
	next    int
	refuse  int
	resumed chan struct{}
}

func (s *sessions) record(e string) { s.mu.Lock(); s.log = append(s.log, e); s.mu.Unlock() }

func (s *sessions) worker() *background.Session[int] {
	return &background.Session[int]{
		Connect: func(context.Context) (int, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.refuse > 0 {
				s.refuse--
				return 0, errors.New("refused")
			}
			s.next++
			return s.next, nil
		},
		Serve: func(ctx context.Context, conn int) error {
			if conn == 1 { // the first session is lost, and the next two attempts refused
				s.mu.Lock()
				s.refuse = 2
				s.mu.Unlock()
				return errors.New("dropped")
			}
			<-ctx.Done() // the second lasts until Stop
			return ctx.Err()
		},
		Close:      func(conn int) { s.record("close " + string(rune('0'+conn))) },
		Lost:       func(err error) { s.record("lost: " + err.Error()) },
		Retrying:   func(err error, _ time.Duration) { s.record("retry: " + err.Error()) },
		Resumed:    func() { s.record("resumed"); close(s.resumed) },
		MaxBackoff: 200 * time.Millisecond,
	}
}

func TestSessionReconnectsAfterALossAndStopsCleanly(t *testing.T) {
	s := &sessions{resumed: make(chan struct{})}
	w := s.worker()
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.resumed:
	case <-time.After(5 * time.Second):
		t.Fatal("the worker did not reconnect")
	}
	if err := w.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"close 1", "lost: dropped", "retry: refused", "retry: refused", "resumed", "close 2"}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Equal(s.log, want) {
		t.Fatalf("log %q, want %q", s.log, want)
	}
}

func TestSessionStartFailsFastAndStopWithoutStartIsANoOp(t *testing.T) {
	s := &sessions{refuse: 1}
	w := s.worker()
	if err := w.Start(context.Background()); err == nil {
		t.Fatal("Start succeeded though the first connection was refused")
	}
	if err := w.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
}
