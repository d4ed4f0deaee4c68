package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// `secret-key rotate` re-seals every signing secret under a new master key and replaces
// the key check in one transaction: the new key opens every secret (the same secrets),
// the old key no longer starts the service, and a secret that was already unreadable is
// reported and left alone.
func TestSecretKeyRotateResealsEverySecret(t *testing.T) {
	bin := testenv.Binary(t)
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		dataDir := t.TempDir()
		vars := map[string]string{
			"CREATORAPI_DATA_DIR": dataDir, "CREATORAPI_DATABASE_URL": dbURL, "CREATORAPI_LOG_LEVEL": "error",
			"CREATORAPI_ADMIN_TOKEN": strings.Repeat("a", 32),
		}
		cli := func(args ...string) (string, error) {
			var out, errOut bytes.Buffer
			cmd := exec.Command(bin, args...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
			for k, v := range vars {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				return out.String(), fmt.Errorf("%w: %s", err, errOut.String())
			}
			return out.String(), nil
		}
		must := func(args ...string) map[string]any {
			t.Helper()
			out, err := cli(args...)
			if err != nil {
				t.Fatalf("creatorapi %s: %v", strings.Join(args, " "), err)
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("creatorapi %s: %v in %q", strings.Join(args, " "), err, out)
			}
			return v
		}
		ws := must("workspace", "create", "--name", "Academy", "--owner-email", "owner@example.com")["id"].(string)
		hook := must("webhook", "create", "--workspace", ws, "--url", "https://hooks.example/in", "--events", "course.published")
		broken := must("webhook", "create", "--workspace", ws, "--url", "https://hooks.example/broken", "--events", "course.published")
		keyA := readMasterKeyFile(t, dataDir)

		db, err := sqldb.Open(context.Background(), dbURL, dataDir)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Writer.Exec(db.Rebind(`UPDATE webhook_subscriptions SET secret_sealed =
			(SELECT secret_sealed FROM webhook_subscriptions WHERE id = ?) WHERE id = ?`), hook["id"], broken["id"]); err != nil {
			t.Fatal(err)
		}

		rot := must("secret-key", "rotate")
		keyB := readMasterKeyFile(t, dataDir)
		if keyB == keyA || rot["resealed"] != float64(1) || len(rot["unreadable"].([]any)) != 1 || rot["unreadable"].([]any)[0] != broken["id"] {
			t.Fatalf("rotation %v (key changed: %v), want 1 re-sealed and the broken endpoint reported", rot, keyB != keyA)
		}
		if info, err := os.Stat(filepath.Join(dataDir, secrets.KeyFileName)); err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("key file after rotation: %v %v", info, err)
		}
		if secret := openSigningSecret(t, db, keyB, ws, hook["id"].(string)); secret != hook["signingSecret"] {
			t.Fatalf("after rotation the secret reads %q, want the one issued", secret)
		}
		if _, err := cli("webhook", "list", "--workspace", ws); err != nil {
			t.Fatalf("the new key does not start the service: %v", err)
		}
		vars["CREATORAPI_SECRET_KEY"] = keyA
		if _, err := cli("webhook", "list", "--workspace", ws); err == nil || !strings.Contains(err.Error(), "not the one this database's secrets were sealed with") {
			t.Fatalf("the old key started the service: %v", err)
		}

		// With the key in the environment: the new key is printed, to be deployed.
		keyC := strings.Repeat("c", 64)
		vars["CREATORAPI_SECRET_KEY"], vars["CREATORAPI_NEW_SECRET_KEY"] = keyB, keyC
		if rot := must("secret-key", "rotate"); rot["secretKey"] != keyC || rot["resealed"] != float64(1) {
			t.Fatalf("rotation %v", rot)
		}
		vars["CREATORAPI_SECRET_KEY"] = keyC
		if secret := openSigningSecret(t, db, keyC, ws, hook["id"].(string)); secret != hook["signingSecret"] {
			t.Fatalf("after the second rotation the secret reads %q", secret)
		}
		if _, err := cli("webhook", "list", "--workspace", ws); err != nil {
			t.Fatalf("the printed key does not start the service: %v", err)
		}
	})
}

func readMasterKeyFile(t *testing.T, dataDir string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dataDir, secrets.KeyFileName))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(raw))
}

func openSigningSecret(t *testing.T, db *sqldb.DB, key, ws, id string) string {
	t.Helper()
	k, err := secrets.ParseMasterKey(key)
	if err != nil {
		t.Fatal(err)
	}
	box, err := secrets.NewBox(k.For(secrets.WebhookSecretsPurpose))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sqlwebhooks.NewSubscriptions(db, box).Get(context.Background(), ws, id)
	if err != nil {
		t.Fatal(err)
	}
	if s.SecretUnreadable {
		return "(unreadable)"
	}
	return s.Secret.String()
}
