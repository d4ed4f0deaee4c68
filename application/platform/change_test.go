package platform

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

type counter struct{ n int }

type counters struct {
	byID  map[string]*counter
	saves int
}

func (s *counters) Get(_ context.Context, workspaceID, id string) (*counter, error) {
	c, ok := s.byID[workspaceID+"/"+id]
	if !ok {
		return nil, kernel.NotFound("counter %s not found", id)
	}
	return c, nil
}

func (s *counters) Update(context.Context, *counter) error { s.saves++; return nil }

type published []events.Event

func (p *published) Publish(_ context.Context, evs ...events.Event) error {
	*p = append(*p, evs...)
	return nil
}

type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

func TestChangeIfSavesOnlyAChange(t *testing.T) {
	ctx, s := context.Background(), &counters{byID: map[string]*counter{"ws/a": {}}}
	bump := func(c *counter) (bool, error) {
		if c.n > 0 {
			return false, nil // already bumped: an idempotent repeat
		}
		c.n++
		return true, nil
	}
	if c, changed, err := ChangeIf(ctx, s, "ws", "a", bump); err != nil || !changed || c.n != 1 || s.saves != 1 {
		t.Fatalf("first bump: n %v, changed %v, err %v, saves %d", c, changed, err, s.saves)
	}
	if _, changed, err := ChangeIf(ctx, s, "ws", "a", bump); err != nil || changed || s.saves != 1 {
		t.Fatalf("repeat: changed %v, err %v, saves %d; want no save", changed, err, s.saves)
	}
	if _, err := Change(ctx, s, "other", "a", func(*counter) error { return nil }); !kernel.IsNotFound(err) {
		t.Fatalf("another workspace's counter: %v, want NotFound", err)
	}
	boom := errors.New("refused")
	if _, err := Change(ctx, s, "ws", "a", func(*counter) error { return boom }); !errors.Is(err, boom) || s.saves != 1 {
		t.Fatalf("refused change: %v, saves %d; want the error and no save", err, s.saves)
	}
}

func TestLifecycleStepPublishesTheViewOfTheChangedAggregate(t *testing.T) {
	ctx, s, pub := context.Background(), &counters{byID: map[string]*counter{"ws/a": {n: 41}}}, &published{}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l := Lifecycle[*counter, events.Certificate]{
		Kit:   Kit{Publisher: pub, Clock: fixedClock(now)},
		Store: s,
		View: func(c *counter) events.Certificate {
			return events.Certificate{ID: "c", EnrollmentID: string(rune('0' + c.n%10))}
		},
	}
	var at time.Time
	out, err := l.Step(ctx, "ws", "a", func(c *counter, t time.Time) error { c.n++; at = t; return nil }, events.CertificateIssuedV1)
	if err != nil || out.EnrollmentID != "2" || !at.Equal(now) || s.saves != 1 {
		t.Fatalf("step: %+v, %v, at %v, saves %d", out, err, at, s.saves)
	}
	if len(*pub) != 1 || (*pub)[0].Type != events.CertificateIssued || (*pub)[0].WorkspaceID != "ws" || (*pub)[0].Data != out {
		t.Fatalf("published %+v, want one certificate.issued with the view", *pub)
	}
	if _, err := l.Step(ctx, "ws", "b", func(*counter, time.Time) error { return nil }, events.CertificateIssuedV1); !kernel.IsNotFound(err) || len(*pub) != 1 {
		t.Fatalf("missing aggregate: %v, published %d; want NotFound and nothing published", err, len(*pub))
	}
}
