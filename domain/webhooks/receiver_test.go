package webhooks

import (
	"strings"
	"testing"
)

func TestReceiverMaskingAndKeepingMaskedValues(t *testing.T) {
	stored := Receiver{Headers: []Header{{"X-Api-Key", "k1"}, {"X-Tenant", "t1"}},
		Auth: &OAuth2{TokenURL: "https://auth.example/token", ClientID: "c", ClientSecret: "s1", Scope: "a b"}}
	shown := stored.Masked()
	for _, h := range shown.Headers {
		if h.Value != Mask {
			t.Fatalf("header %s shown as %q", h.Name, h.Value)
		}
	}
	if shown.Auth.ClientSecret != Mask || stored.Auth.ClientSecret != "s1" {
		t.Fatalf("masking changed the stored grant or left the secret: %+v %+v", shown.Auth, stored.Auth)
	}
	// The masked form sent back unchanged, plus a header: the stored values are kept.
	next := shown
	next.Headers = append(next.Headers, Header{"X-New", "n"})
	kept, err := ValidateReceiver(KeepMasked(next, stored), false)
	if err != nil {
		t.Fatal(err)
	}
	if kept.Headers[0].Value != "k1" || kept.Headers[1].Value != "t1" || kept.Headers[2].Value != "n" || kept.Auth.ClientSecret != "s1" {
		t.Fatalf("kept %+v", kept)
	}
	// Another client id: the masked secret is not carried over to it.
	other := shown
	other.Auth = &OAuth2{TokenURL: stored.Auth.TokenURL, ClientID: "other", ClientSecret: Mask}
	if _, err := ValidateReceiver(KeepMasked(other, stored), false); err == nil || !strings.Contains(err.Error(), "clientSecret") {
		t.Fatalf("a masked secret for another client: %v", err)
	}
}
