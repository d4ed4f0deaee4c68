package background_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/background"
)

// recorder logs the starts and stops of the workers it makes.
type recorder struct{ log []string }

func (r *recorder) worker(name string, startErr error) background.Named {
	return background.Named{Name: name, Worker: background.Hooks(
		func(context.Context) error { r.log = append(r.log, "start "+name); return startErr },
		func(context.Context) error { r.log = append(r.log, "stop "+name); return nil })}
}

func TestGroupStartsInOrderAndStopsInReverse(t *testing.T) {
	r := &recorder{}
	g := background.Group{r.worker("a", nil), r.worker("b", nil), r.worker("c", nil)}
	if err := g.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := g.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"start a", "start b", "start c", "stop c", "stop b", "stop a"}
	if !slices.Equal(r.log, want) {
		t.Fatalf("order %q, want %q", r.log, want)
	}
}

func TestGroupStopsWhatStartedWhenOneFails(t *testing.T) {
	r := &recorder{}
	boom := errors.New("boom")
	g := background.Group{r.worker("a", nil), r.worker("b", nil), r.worker("c", boom), r.worker("d", nil)}
	err := g.Start(context.Background())
	if !errors.Is(err, boom) {
		t.Fatalf("start error %v, want boom", err)
	}
	want := []string{"start a", "start b", "start c", "stop b", "stop a"}
	if !slices.Equal(r.log, want) {
		t.Fatalf("order %q, want %q", r.log, want)
	}
}

func TestEveryRunsOnTicksAndOnceMoreOnStop(t *testing.T) {
	var runs atomic.Int64
	w := background.Every(5*time.Millisecond, func(context.Context) { runs.Add(1) })
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runs.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if err := w.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := runs.Load()
	if after < 3 {
		t.Fatalf("%d runs: want two ticks and one on stop", after)
	}
	time.Sleep(20 * time.Millisecond)
	if runs.Load() != after {
		t.Fatal("ran after Stop returned")
	}
}

func TestWorkersNeverStartedStopQuietly(t *testing.T) {
	for _, w := range []background.Worker{background.Every(time.Hour, func(context.Context) {}), background.Loop(func(<-chan struct{}) {})} {
		if err := w.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
