package webhooks

import (
	"crypto/rand"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestClassifyIsTheResponsePolicy(t *testing.T) {
	for _, c := range []struct {
		r    Result
		want Outcome
	}{
		{Result{StatusCode: 200}, Succeeded}, {Result{StatusCode: 299}, Succeeded},
		{Result{StatusCode: 408}, Retry}, {Result{StatusCode: 429}, Retry}, {Result{StatusCode: 500}, Retry}, {Result{StatusCode: 599}, Retry},
		{Result{Transport: TransportTimeout}, Retry}, {Result{Transport: TransportNetwork}, Retry},
		{Result{StatusCode: 301}, Failed}, {Result{StatusCode: 304}, Failed}, {Result{StatusCode: 400}, Failed},
		{Result{StatusCode: 404}, Failed}, {Result{StatusCode: 410}, Failed}, {Result{StatusCode: 100}, Failed},
		{Result{Transport: TransportRefused}, Failed},
	} {
		if got := Classify(c.r); got != c.want {
			t.Errorf("%+v: %s, want %s", c.r, got, c.want)
		}
	}
}

func TestRetriesFollowTheScheduleFromTheFirstFailure(t *testing.T) {
	p := Policy{Schedule: DefaultSchedule, MaxRetryAfter: 24 * time.Hour}
	d := &Delivery{ID: "evd_1", Status: Pending}
	at := t0
	for i := 0; i < len(DefaultSchedule); i++ {
		a := d.RecordAttempt(Result{StatusCode: 503}, at, p)
		if a.Outcome != Retry || d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(t0.Add(DefaultSchedule[i])) {
			t.Fatalf("failure %d: %s, next %v, want +%s", i+1, a.Outcome, d.NextAttemptAt, DefaultSchedule[i])
		}
		at = *d.NextAttemptAt
	}
	if a := d.RecordAttempt(Result{StatusCode: 503}, at, p); a.Outcome != Failed || d.Status != DeliveryFailed || d.Attempts != 7 {
		t.Fatalf("last attempt: %s, %s after %d", a.Outcome, d.Status, d.Attempts)
	}
	// A long Retry-After wins over the schedule, capped; a short one does not.
	d = &Delivery{Status: Pending}
	d.RecordAttempt(Result{StatusCode: 429, RetryAfter: time.Hour}, t0, p)
	if !d.NextAttemptAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("Retry-After 1h: next %v", d.NextAttemptAt)
	}
	d = &Delivery{Status: Pending}
	d.RecordAttempt(Result{StatusCode: 429, RetryAfter: 10 * 24 * time.Hour}, t0, p)
	if !d.NextAttemptAt.Equal(t0.Add(24 * time.Hour)) {
		t.Fatalf("Retry-After 10 days: next %v, want capped at 24h", d.NextAttemptAt)
	}
	// A resend starts a new cycle with the whole schedule.
	d.Resend(t0.Add(48 * time.Hour))
	d.RecordAttempt(Result{StatusCode: 500}, t0.Add(48*time.Hour), p)
	if !d.NextAttemptAt.Equal(t0.Add(48*time.Hour + time.Minute)) {
		t.Fatalf("after resend: next %v", d.NextAttemptAt)
	}
}

func TestAutoDisableNeedsAnUnbrokenFailingStreak(t *testing.T) {
	secret, _ := GenerateSecret(rand.Reader)
	s, err := NewSubscription("whk_1", "org_1", "https://example.com/h", []string{"course.published"}, secret, false, t0)
	if err != nil {
		t.Fatal(err)
	}
	week := 7 * 24 * time.Hour
	if s.RecordFailure(t0, week) || s.RecordFailure(t0.Add(week-time.Second), week) {
		t.Fatal("disabled before 7 days")
	}
	s.FailingSince = nil // a success in between ends the streak
	if s.RecordFailure(t0.Add(week), week) {
		t.Fatal("disabled although a success broke the streak")
	}
	if !s.RecordFailure(t0.Add(2*week), week) || s.Status != Disabled || s.Reason != ByFailures {
		t.Fatalf("not disabled after 7 days of failures: %+v", s)
	}
	if s.RecordFailure(t0.Add(3*week), week) {
		t.Fatal("disabled twice (a second notice)")
	}
	s.Enable(t0.Add(3 * week))
	if s.Status != Enabled || s.FailingSince != nil {
		t.Fatalf("enable: %+v", s)
	}
}

func TestRotationSignsWithBothSecretsFor24Hours(t *testing.T) {
	a, _ := GenerateSecret(rand.Reader)
	b, _ := GenerateSecret(rand.Reader)
	if len(a.Key()) != 32 || a.Equal(b) {
		t.Fatal("secrets must carry 32 random bytes")
	}
	s := &Subscription{Secret: a}
	s.Rotate(b, t0)
	if got := s.Signing(t0.Add(24*time.Hour - time.Second)); len(got) != 2 || !got[0].Equal(b) || !got[1].Equal(a) {
		t.Fatalf("during the overlap: %d secrets", len(got))
	}
	if got := s.Signing(t0.Add(24 * time.Hour)); len(got) != 1 || !got[0].Equal(b) {
		t.Fatalf("after the overlap: %d secrets", len(got))
	}
}

func TestURLAndEventValidation(t *testing.T) {
	for raw, allowHTTP := range map[string]bool{"http://example.com": false, "ftp://example.com": true, "https://": false,
		"https://user:pw@example.com/": false, "/relative": false, "https://example.com/#frag": false} {
		if _, err := ValidateURL(raw, allowHTTP); err == nil {
			t.Errorf("%q accepted", raw)
		}
	}
	if _, err := ValidateURL("http://127.0.0.1:8080/h", true); err != nil {
		t.Errorf("http with allowHTTP: %v", err)
	}
	known := []string{"a.b", "c.d"}
	if got, err := ParseEventTypes([]string{"c.d", " a.b", "c.d"}, known); err != nil || len(got) != 2 || got[0] != "a.b" {
		t.Fatalf("parse: %v %v", got, err)
	}
	for _, bad := range [][]string{nil, {"x.y"}, {""}} {
		if _, err := ParseEventTypes(bad, known); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
