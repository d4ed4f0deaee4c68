package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// LiveSessionAdapters is one implementation of the live sessions module's ports, over
// one store.
type LiveSessionAdapters struct {
	Repo       livesessions.Repository
	Recordings livesessions.Recordings
	// NewWorkspace returns the id of a fresh workspace the store accepts.
	NewWorkspace func(t *testing.T) string
	// NewCourse returns a course id the store accepts as a reference (a real row of the
	// courses module).
	NewCourse func(t *testing.T, workspaceID string) string
}

// LiveSessionFactory opens a store once per suite; each case works in its own workspace.
type LiveSessionFactory func(t *testing.T) LiveSessionAdapters

// newSession is a scheduled session built by the domain, its id unique per case.
func newSession(t *testing.T, ws, course, name string) *livesessions.Session {
	t.Helper()
	s, err := livesessions.Schedule(fmt.Sprintf("lvs_%s_%s", ws, name), ws, course, "Live "+name, at(0))
	if err != nil {
		t.Fatalf("schedule: %v", err)
	}
	return s
}

func mustSchedule(t *testing.T, a LiveSessionAdapters, s *livesessions.Session) {
	t.Helper()
	if err := a.Repo.Add(context.Background(), s); err != nil {
		t.Fatalf("add %s: %v", s.ID, err)
	}
}

// wantOneWinner fails unless exactly one of errs is nil.
func wantOneWinner(t *testing.T, what string, errs []error) {
	t.Helper()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d concurrent %s succeeded; want exactly 1 (errors %v)", won, len(errs), what, errs)
	}
}

// LiveSessionRepository is the contract of livesessions.Repository.
func LiveSessionRepository(t *testing.T, open LiveSessionFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a new session reads back as written", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := newSession(t, ws, a.NewCourse(t, ws), "new")
		mustSchedule(t, a, s)
		got, err := a.Repo.Get(ctx, ws, s.ID)
		if err != nil {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, s)
		}
		mustMatch(t, "Get", s, got)
	})

	t.Run("update saves the life cycle: start, then end", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := newSession(t, ws, a.NewCourse(t, ws), "cycle")
		mustSchedule(t, a, s)
		for i, step := range []func(*livesessions.Session) error{
			func(s *livesessions.Session) error { return s.Start(at(10)) },
			func(s *livesessions.Session) error { return s.End(at(70)) },
		} {
			if err := step(s); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if err := a.Repo.Update(ctx, s); err != nil {
				t.Fatalf("update %d: %v", i, err)
			}
			got, err := a.Repo.Get(ctx, ws, s.ID)
			if err != nil {
				t.Fatalf("after step %d: %+v, %v; want %+v", i, got, err, s)
			}
			mustMatch(t, "after step", s, got)
		}
	})

	t.Run("another workspace's session is not found, nor is an unknown id", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s := newSession(t, ws, a.NewCourse(t, ws), "hidden")
		mustSchedule(t, a, s)
		_, err := a.Repo.Get(ctx, other, s.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.Get(ctx, ws, "lvs_missing")
		wantKind(t, err, kernel.KindNotFound, "")
		// An update named in another workspace changes nothing.
		moved := *s
		moved.WorkspaceID = other
		if err := moved.Start(at(5)); err != nil {
			t.Fatalf("start: %v", err)
		}
		if err := a.Repo.Update(ctx, &moved); err != nil {
			t.Fatalf("update in another workspace: %v", err)
		}
		got, err := a.Repo.Get(ctx, ws, s.ID)
		if err != nil {
			t.Fatalf("after an update from another workspace: %+v, %v; want %+v", got, err, s)
		}
		mustMatch(t, "after an update from another workspace", s, got)
	})

	t.Run("an id is stored once: a second add fails and changes nothing", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		course := a.NewCourse(t, ws)
		s := newSession(t, ws, course, "twice")
		mustSchedule(t, a, s)
		again := *s
		again.Title = "Another title"
		if err := a.Repo.Add(ctx, &again); err == nil {
			t.Fatal("a second session with the same id was added")
		}
		got, err := a.Repo.Get(ctx, ws, s.ID)
		if err != nil {
			t.Fatalf("after the refused add: %+v, %v; want %+v", got, err, s)
		}
		mustMatch(t, "after the refused add", s, got)
	})

	t.Run("concurrent adds: one id lands once, distinct ids all land", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		course := a.NewCourse(t, ws)
		const n = 8
		same := newSession(t, ws, course, "race")
		wantOneWinner(t, "adds of one session id", Parallel(n, func(int) error {
			s := *same
			return a.Repo.Add(ctx, &s)
		}))
		distinct := make([]*livesessions.Session, n)
		for i := range distinct {
			distinct[i] = newSession(t, ws, course, fmt.Sprintf("many%d", i))
		}
		for i, err := range Parallel(n, func(i int) error { return a.Repo.Add(ctx, distinct[i]) }) {
			if err != nil {
				t.Fatalf("add %d: %v", i, err)
			}
		}
		for _, s := range distinct {
			if got, err := a.Repo.Get(ctx, ws, s.ID); err != nil || !reflect.DeepEqual(got, s) {
				t.Fatalf("Get %s = %+v, %v", s.ID, got, err)
			}
		}
	})
}

// LiveSessionRecordings is the contract of livesessions.Recordings.
func LiveSessionRecordings(t *testing.T, open LiveSessionFactory) {
	a := open(t)
	ctx := context.Background()
	ended := func(t *testing.T, name string) *livesessions.Session {
		t.Helper()
		ws := a.NewWorkspace(t)
		s := newSession(t, ws, a.NewCourse(t, ws), name)
		if err := s.Start(at(1)); err != nil {
			t.Fatalf("start: %v", err)
		}
		if err := s.End(at(2)); err != nil {
			t.Fatalf("end: %v", err)
		}
		mustSchedule(t, a, s)
		return s
	}
	record := func(t *testing.T, s *livesessions.Session, id string) *livesessions.Recording {
		t.Helper()
		r, err := s.Record(id, 60, at(3))
		if err != nil {
			t.Fatalf("record: %v", err)
		}
		return r
	}

	t.Run("a recording of a stored session is added once", func(t *testing.T) {
		s := ended(t, "rec")
		r := record(t, s, "rec_"+s.ID)
		if err := a.Recordings.Add(ctx, r); err != nil {
			t.Fatalf("add: %v", err)
		}
		if err := a.Recordings.Add(ctx, r); err == nil {
			t.Fatal("the same recording id was added twice")
		}
	})

	t.Run("a recording of a session that was never stored is refused", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := newSession(t, ws, a.NewCourse(t, ws), "ghost")
		s.Status = livesessions.Ended
		if err := a.Recordings.Add(ctx, record(t, s, "rec_"+s.ID)); err == nil {
			t.Fatal("a recording of an unknown session was added")
		}
	})

	t.Run("concurrent adds of one recording id: exactly one lands", func(t *testing.T) {
		s := ended(t, "recrace")
		r := record(t, s, "rec_"+s.ID)
		wantOneWinner(t, "adds of one recording id", Parallel(8, func(int) error {
			c := *r
			return a.Recordings.Add(ctx, &c)
		}))
	})
}
