package tests

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// startErr starts the service on cfg and returns why it did not start (nil: it did).
func startErr(t *testing.T, cfg compose.Config) error {
	t.Helper()
	app := fx.New(compose.Modules(cfg), fx.Invoke(func(secrets.MasterKey) {}))
	if err := app.Err(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		return err
	}
	return app.Stop(ctx)
}

// The first start stores a key check in the database; an instance whose master key does
// not open it, or that has no key at all, refuses to start and says what to do, instead
// of sealing new secrets under a key of its own. The right key, from the environment or
// from a key file, starts.
func TestWrongOrMissingMasterKeyStopsTheService(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		first := testenv.Config(t, dbURL)
		if err := startErr(t, first); err != nil {
			t.Fatalf("first start: %v", err)
		}

		other := testenv.Config(t, dbURL)
		other.SecretKey = strings.Repeat("ab", 32)
		err := startErr(t, other)
		if !errors.Is(err, secrets.ErrWrongMasterKey) || !strings.Contains(err.Error(), "copy secret.key from the instance that created the database") {
			t.Fatalf("another key: %v, want a refusal saying what to do", err)
		}

		missing := testenv.Config(t, dbURL) // a new data folder, no key configured
		missing.SecretKey = ""
		err = startErr(t, missing)
		if err == nil || !strings.Contains(err.Error(), "no master key") || !strings.Contains(err.Error(), "CREATORAPI_SECRET_KEY") {
			t.Fatalf("no key: %v, want a refusal saying what to do", err)
		}
		if _, err := os.Stat(filepath.Join(missing.DataDir, secrets.KeyFileName)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a key file was generated for a database sealed under another key: %v", err)
		}

		// The right key, as a key file, starts.
		if err := os.WriteFile(filepath.Join(missing.DataDir, secrets.KeyFileName), []byte(first.SecretKey+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := startErr(t, missing); err != nil {
			t.Fatalf("the right key from a key file: %v", err)
		}
	})
}

// A database from before the key check (secrets, no check): the first start stores the
// check only if its key opens the secrets there; another key is refused, not recorded.
func TestMasterKeyCheckOfAnOlderDatabaseIsStoredOnlyByTheRightKey(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		first := testenv.Start(t, dbURL)
		ws := first.CreateWorkspace(t, "Academy")
		first.CreateWebhook(t, ws, "https://hooks.example/in", "course.published")
		if _, err := first.DB.Writer.Exec(`DELETE FROM settings WHERE name = 'master_key_check'`); err != nil {
			t.Fatal(err)
		}
		first.Stop(t)

		other := testenv.Config(t, dbURL)
		other.SecretKey = strings.Repeat("cd", 32)
		if err := startErr(t, other); !errors.Is(err, secrets.ErrWrongMasterKey) {
			t.Fatalf("another key on an older database: %v, want refused", err)
		}
		if err := startErr(t, testenv.Config(t, dbURL)); err != nil {
			t.Fatalf("the right key: %v", err)
		}
		if err := startErr(t, other); !errors.Is(err, secrets.ErrWrongMasterKey) {
			t.Fatalf("another key after the check was stored: %v, want refused", err)
		}
	})
}
