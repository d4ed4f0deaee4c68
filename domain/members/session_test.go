package members

import (
	"crypto/rand"
	"testing"
	"time"
)

func TestSessionIdleAndAbsoluteExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, token, err := NewSession(rand.Reader, "a@b.co", now)
	if err != nil || token == "" || s.CSRFToken == "" {
		t.Fatalf("new session: %v", err)
	}
	if !s.Live(now.Add(IdleTimeout - time.Second)) {
		t.Fatal("live before the idle timeout")
	}
	if s.Live(now.Add(IdleTimeout)) {
		t.Fatal("idle for 12 hours must end the session")
	}
	// Seen every 11 hours: idle never reached, the absolute limit still applies.
	at := now
	for at.Before(now.Add(AbsoluteTimeout - 11*time.Hour)) {
		at = at.Add(11 * time.Hour)
		if !s.Live(at) {
			t.Fatalf("session ended at %v", at)
		}
		s.Touch(at)
	}
	if s.Live(now.Add(AbsoluteTimeout)) {
		t.Fatal("30 days must end the session")
	}
}

func TestLinkSingleUseAndExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l, token, _ := NewLink(rand.Reader, ForSignIn, "a@b.co", "org_1", now)
	if string(l.TokenHash) == token || len(l.TokenHash) != 32 {
		t.Fatal("only the hash is kept")
	}
	if err := l.Use(now.Add(LinkTTL - time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := l.Use(now.Add(time.Second)); err != ErrLinkUnusable {
		t.Fatalf("second use: %v", err)
	}
	l2, _, _ := NewLink(rand.Reader, ForSignIn, "a@b.co", "org_1", now)
	if err := l2.Use(now.Add(LinkTTL)); err != ErrLinkUnusable {
		t.Fatalf("expired use: %v", err)
	}
}
