package secrets

import (
	"bytes"
	"testing"
)

func TestBoxSealsBoundToOwner(t *testing.T) {
	key, _ := ParseMasterKey("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	box, err := NewBox(key.For("webhook-secrets/v1"))
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte("whsec_c2VjcmV0")
	sealed, err := box.Seal("whk_1", plain)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, plain) {
		t.Fatal("sealed bytes contain the secret")
	}
	again, _ := box.Seal("whk_1", plain)
	if bytes.Equal(sealed, again) {
		t.Fatal("two seals of one secret are equal: the nonce is not random")
	}
	got, err := box.Open("whk_1", sealed)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := box.Open("whk_2", sealed); err == nil {
		t.Fatal("a secret opened under another subscription id")
	}
	other, _ := NewBox(key.For("cursor/v1"))
	if _, err := other.Open("whk_1", sealed); err == nil {
		t.Fatal("a secret opened under another key")
	}
	sealed[len(sealed)-1] ^= 1
	if _, err := box.Open("whk_1", sealed); err == nil {
		t.Fatal("altered bytes opened")
	}
}
