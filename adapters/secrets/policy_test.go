package secrets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// memKeyStore keeps the key check in memory; it holds no sealed secrets.
type memKeyStore struct{ check string }

func (m *memKeyStore) StoredCheck(context.Context) (string, bool, error) {
	return m.check, m.check != "", nil
}

func (m *memKeyStore) EnsureCheck(_ context.Context, check string, _ time.Time) (string, error) {
	if m.check == "" {
		m.check = check
	}
	return m.check, nil
}

func (m *memKeyStore) OpensExisting(context.Context, int, func(string, []byte) bool) (bool, error) {
	return true, nil
}

func (m *memKeyStore) Rotate(_ context.Context, r Resealer, _ time.Time) (Rotation, error) {
	if m.check != "" && !r.Opens(m.check) {
		return Rotation{}, errors.New("old key does not open the check")
	}
	m.check = r.NewCheck
	return Rotation{Unreadable: []string{}}, nil
}

// The first key proves itself and stores the check; another key is refused at start and
// by the watch; a data folder without a key file gets none generated for a database that
// has a check; a rotation leaves the new key proving and the old one refused.
func TestPolicyHoldsOneKeyPerDatabase(t *testing.T) {
	ctx := context.Background()
	store := &memKeyStore{}
	first := Policy{DataDir: t.TempDir(), Store: store, Now: time.Now}
	key, err := first.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Prove(ctx, key); err != nil || store.check == "" {
		t.Fatalf("first start: %v, check stored %v", err, store.check != "")
	}

	other := Policy{DataDir: t.TempDir(), EnvKey: strings.Repeat("ab", 32), Store: store, Now: time.Now}
	otherKey, err := other.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Prove(ctx, otherKey); !errors.Is(err, ErrWrongMasterKey) || !strings.Contains(err.Error(), "CREATORAPI_SECRET_KEY") {
		t.Fatalf("another key: %v, want ErrWrongMasterKey naming its source", err)
	}
	if err := other.StillOpens(ctx, otherKey); !errors.Is(err, ErrWrongMasterKey) {
		t.Fatalf("watch with another key: %v", err)
	}

	missing := Policy{DataDir: t.TempDir(), Store: store, Now: time.Now}
	if _, err := missing.Load(ctx); err == nil || !strings.Contains(err.Error(), "no master key") {
		t.Fatalf("no key file for a sealed database: %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(missing.DataDir, KeyFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a key file was generated: %v", err)
	}

	next, err := ParseNewKey("")
	if err != nil {
		t.Fatal(err)
	}
	out, err := (&Rotator{Policy: first, Current: key}).Rotate(ctx, next)
	if err != nil || out["keyFile"] == nil {
		t.Fatalf("rotate: %v, %v", out, err)
	}
	if err := first.StillOpens(ctx, key); !errors.Is(err, ErrWrongMasterKey) {
		t.Fatalf("the old key after the rotation: %v, want refused", err)
	}
	reloaded, err := first.Load(ctx)
	if err != nil || first.Prove(ctx, reloaded) != nil || reloaded.Hex() != next.Hex() {
		t.Fatalf("the rotated key file: %v", err)
	}
}
