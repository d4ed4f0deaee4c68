package platform

import (
	"testing"
	"time"
)

type wallClock struct{ t time.Time }

func (c *wallClock) now() time.Time { return c.t }

func TestPacerDelaysOnlyOverTheTarget(t *testing.T) {
	c := &wallClock{t: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)}
	p := NewPacer(250*time.Millisecond, c.now)
	if d := p.Delay(); d != 0 {
		t.Fatalf("no lag heard: delay %v, want 0", d)
	}
	p.Observe(StageDispatch, 250*time.Millisecond)
	if got := p.Lag(); got != 250*time.Millisecond {
		t.Fatalf("lag %v, want 250ms", got)
	}
	if d := p.Delay(); d != 0 {
		t.Fatalf("lag at the target: delay %v, want 0", d)
	}
	p.Observe(StageDispatch, 1250*time.Millisecond) // smoothed: 250 + 0.2*(1250-250) = 450
	if got := p.Lag(); got != 450*time.Millisecond {
		t.Fatalf("smoothed lag %v, want 450ms", got)
	}
	if d := p.Delay(); d != 20*time.Millisecond {
		t.Fatalf("200ms over the target: delay %v, want 20ms", d)
	}
}

func TestPacerForgetsQuietStagesAndCapsOddLags(t *testing.T) {
	c := &wallClock{t: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)}
	p := NewPacer(250*time.Millisecond, c.now)
	p.Observe(StageDispatch, 48*time.Hour) // a delivery of an endpoint re-enabled after days
	if got := p.Lag(); got != pacingCap {
		t.Fatalf("lag %v, want it capped at %v", got, pacingCap)
	}
	if d := p.Delay(); d != MaxPaceDelay {
		t.Fatalf("delay %v, want the cap %v", d, MaxPaceDelay)
	}
	c.t = c.t.Add(pacingFresh + time.Millisecond)
	if got := p.Lag(); got != 0 {
		t.Fatalf("a stage silent for over %v still counts: lag %v", pacingFresh, got)
	}
	p.ObserveSince(StageDispatch, c.t.Add(-300*time.Millisecond)) // fresh again: not smoothed with the old value
	if got := p.Lag(); got != 300*time.Millisecond {
		t.Fatalf("lag %v, want 300ms", got)
	}
}

func TestPacerOffOrNilNeverDelays(t *testing.T) {
	c := &wallClock{t: time.Now()}
	off := NewPacer(0, c.now)
	off.Observe(StageDispatch, time.Minute)
	if d := off.Delay(); d != 0 {
		t.Fatalf("target 0 must never pace: delay %v", d)
	}
	var none *Pacer
	none.Observe(StageDispatch, time.Minute)
	none.ObserveSince(StageDispatch, c.t)
	if d := none.Delay(); d != 0 {
		t.Fatalf("nil pacer: delay %v", d)
	}
}
