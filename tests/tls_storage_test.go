package tests

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sql/tlsstorage"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// TestTLSStorageKeepsCertmagicsSemantics checks the certmagic.Storage over each database:
// missing keys are fs.ErrNotExist, List and Stat see "directories", Delete takes a key's
// subtree, a lock held by one instance keeps another waiting until it is released, and an
// expired one (its holder crashed) is taken over.
func TestTLSStorageKeepsCertmagicsSemantics(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		ctx := context.Background()
		s := tlsstorage.New(testenv.MigratedDB(t, dbURL))
		if _, err := s.Load(ctx, "certificates/ca/x/x.crt"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("missing key: %v, want fs.ErrNotExist", err)
		}
		for _, k := range []string{"certificates/ca/a.example/a.example.crt", "certificates/ca/a.example/a.example.key",
			"certificates/ca/b.example/b.example.crt", "certificates/cab/c.crt", "acme/ca/users/x.json"} {
			if err := s.Store(ctx, k, []byte("value of "+k)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Store(ctx, "acme/ca/users/x.json", []byte("new")); err != nil {
			t.Fatal(err)
		}
		if v, err := s.Load(ctx, "acme/ca/users/x.json"); err != nil || string(v) != "new" {
			t.Fatalf("overwrite: %q %v", v, err)
		}
		level, err := s.List(ctx, "certificates/ca", false)
		if err != nil || !slices.Equal(level, []string{"certificates/ca/a.example", "certificates/ca/b.example"}) {
			t.Fatalf("List not recursive: %v %v (certificates/cab is not under certificates/ca)", level, err)
		}
		all, err := s.List(ctx, "certificates", true)
		if err != nil || len(all) != 4 {
			t.Fatalf("List recursive: %v %v", all, err)
		}
		if info, err := s.Stat(ctx, "certificates/ca/a.example"); err != nil || info.IsTerminal {
			t.Fatalf("Stat of a directory: %+v %v", info, err)
		}
		if info, err := s.Stat(ctx, "acme/ca/users/x.json"); err != nil || !info.IsTerminal || info.Size != 3 || time.Since(info.Modified) > time.Minute {
			t.Fatalf("Stat of a key: %+v %v", info, err)
		}
		if err := s.Delete(ctx, "certificates/ca"); err != nil {
			t.Fatal(err)
		}
		if s.Exists(ctx, "certificates/ca/a.example/a.example.crt") || !s.Exists(ctx, "certificates/cab/c.crt") {
			t.Fatal("Delete took the wrong keys: a subtree goes, a sibling with the same prefix stays")
		}

		// Two instances (two storages over the same database): the second waits for the lock.
		other := tlsstorage.New(testenv.MigratedDB(t, dbURL))
		if err := s.Lock(ctx, "issue_cert_a.example"); err != nil {
			t.Fatal(err)
		}
		waitCtx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer cancel()
		if err := other.Lock(waitCtx, "issue_cert_a.example"); err == nil {
			t.Fatal("a second instance took a held lock")
		}
		got := make(chan error, 1)
		go func() { got <- other.Lock(ctx, "issue_cert_a.example") }()
		time.Sleep(200 * time.Millisecond)
		if err := s.Unlock(ctx, "issue_cert_a.example"); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-got:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the waiting instance did not get the released lock")
		}
		if err := other.Unlock(ctx, "issue_cert_a.example"); err != nil {
			t.Fatal(err)
		}

		// A crashed holder's lock (its expiry passed without renewal) is taken over at once.
		db := testenv.MigratedDB(t, dbURL)
		if _, err := db.Writer.Exec(db.Rebind(`INSERT INTO tls_locks (name, owner, expires_ms) VALUES (?, ?, ?)`),
			"issue_cert_b.example", "crashed", time.Now().Add(-time.Second).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		quick, cancelQuick := context.WithTimeout(ctx, 2*time.Second)
		defer cancelQuick()
		if err := s.Lock(quick, "issue_cert_b.example"); err != nil {
			t.Fatalf("an expired lock was not taken over: %v", err)
		}
		if err := s.Unlock(ctx, "issue_cert_b.example"); err != nil {
			t.Fatal(err)
		}
	})
}
