package tests

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// cliRun returns a runner of one-shot commands of bin with the environment env that
// reports the standard output, the standard error and the exit code.
func cliRun(t *testing.T, bin string, env []string) func(args ...string) (stdout, stderr string, code int) {
	return func(args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			return out.String(), errOut.String(), exit.ExitCode()
		case err != nil:
			t.Fatalf("creatorapi %s: %v", strings.Join(args, " "), err)
		}
		return out.String(), errOut.String(), 0
	}
}

// storedWebhook is what `webhook list` shows of an endpoint.
type storedWebhook struct {
	ID        string
	URL       string
	Events    []string
	Status    string
	RateLimit *int
	Ordered   bool
	Headers   []struct{ Name, Value string }
	Auth      *struct{ TokenURL, ClientID, ClientSecret, Scope string }
}

// With the built binary: `webhook update` stores every flag (URL, types, rate limit,
// order, static headers, OAuth2 grant), keeps what its flags leave out, refuses bad values
// with a clear message and a non-zero exit (changing nothing: one transaction), and
// `webhook send-waiting` queues or refuses. No secret value is ever printed.
func TestWebhookUpdateAndSendWaitingWithTheBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		bin := testenv.Binary(t)
		env := append(os.Environ(), "CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+dbURL)
		run := cliRun(t, bin, env)
		var printed strings.Builder // every output, searched for secrets at the end
		ok := func(args ...string) []byte {
			t.Helper()
			out, errOut, code := run(args...)
			printed.WriteString(out + errOut)
			if code != 0 {
				t.Fatalf("creatorapi %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
			}
			return []byte(out)
		}
		var ws, created struct{ ID string }
		mustJSON(t, ok("workspace", "create", "--name", "CLI Hooks", "--owner-email", "owner@example.com"), &ws)
		mustJSON(t, ok("webhook", "create", "--workspace", ws.ID, "--url", "https://example.com/a", "--events", "course.published"), &created)
		stored := func() storedWebhook {
			t.Helper()
			var list struct{ Data []storedWebhook }
			mustJSON(t, ok("webhook", "list", "--workspace", ws.ID), &list)
			if len(list.Data) != 1 {
				t.Fatalf("%d endpoints listed, want 1", len(list.Data))
			}
			return list.Data[0]
		}

		var shown storedWebhook
		mustJSON(t, ok("webhook", "update", "--workspace", ws.ID, "--url", "https://example.com/b", "--events", "course.published,order.paid",
			"--rate-limit", "20", "--ordered", "--header", "X-Api-Key: hdr-secret-value", "--header", "X-Tenant: t-secret-value",
			"--oauth2-token-url", "https://auth.example.com/token", "--oauth2-client-id", "hooks-client",
			"--oauth2-client-secret", "oauth-secret-value", "--oauth2-scope", "hooks:write", created.ID), &shown)
		twenty := 20
		want := storedWebhook{ID: created.ID, URL: "https://example.com/b", Events: []string{"course.published", "order.paid"},
			Status: "enabled", RateLimit: &twenty, Ordered: true,
			Headers: []struct{ Name, Value string }{{"X-Api-Key", "********"}, {"X-Tenant", "********"}},
			Auth:    &struct{ TokenURL, ClientID, ClientSecret, Scope string }{"https://auth.example.com/token", "hooks-client", "********", "hooks:write"}}
		if diff := cmp.Diff(want, shown); diff != "" {
			t.Fatalf("update's output (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(want, stored()); diff != "" {
			t.Fatalf("stored after update (-want +got):\n%s", diff)
		}

		// Refused: a message naming the problem, a non-zero exit, nothing changed.
		for _, c := range []struct {
			args    []string
			message string
		}{
			{[]string{"--rate-limit", "5000"}, "rateLimit: deliveries per second, from 1 to 1000"},
			{[]string{"--rate-limit", "fast"}, `invalid value "fast" for flag -rate-limit`},
			{[]string{"--url", "https://example.com/c", "--header", "X-SVC-Signature: forged"}, "X-SVC-Signature is reserved"},
			{[]string{"--header", "no colon here"}, "not 'Name: value'"},
			{[]string{"--oauth2-token-url", "http://auth.example.com/token", "--oauth2-client-id", "c", "--oauth2-client-secret", "s"},
				"auth.tokenUrl must be an absolute https URL"},
			{[]string{"--events", "course.published,no.such_type"}, "no.such_type"},
			{[]string{"--url", "ftp://example.com/hook"}, "url"},
		} {
			args := append(append([]string{"webhook", "update", "--workspace", ws.ID}, c.args...), created.ID)
			out, errOut, code := run(args...)
			printed.WriteString(out + errOut)
			if code == 0 || out != "" || !strings.Contains(errOut, c.message) {
				t.Fatalf("creatorapi %s: exit %d, stdout %q, stderr %q; want a non-zero exit and %q", strings.Join(args, " "), code, out, errOut, c.message)
			}
		}
		if _, errOut, code := run("webhook", "update", "--workspace", ws.ID, "--rate-limit", "5", "whk_missing"); code == 0 || !strings.Contains(errOut, "whk_missing not found") {
			t.Fatalf("update of an unknown endpoint: exit %d, %q", code, errOut)
		}
		if diff := cmp.Diff(want, stored()); diff != "" {
			t.Fatalf("refused updates changed the endpoint (-want +got):\n%s", diff)
		}

		// What the flags leave out stays; --rate-limit 0 and --ordered=false remove pacing;
		// --clear-headers and --clear-auth remove the receiver.
		ok("webhook", "update", "--workspace", ws.ID, "--rate-limit", "0", "--ordered=false", created.ID)
		want.RateLimit, want.Ordered = nil, false
		if diff := cmp.Diff(want, stored()); diff != "" {
			t.Fatalf("after clearing the pacing (-want +got):\n%s", diff)
		}
		ok("webhook", "update", "--workspace", ws.ID, "--clear-headers", "--clear-auth", created.ID)
		want.Headers, want.Auth = nil, nil
		if diff := cmp.Diff(want, stored()); diff != "" {
			t.Fatalf("after clearing the receiver (-want +got):\n%s", diff)
		}

		var q struct{ Queued *int }
		mustJSON(t, ok("webhook", "send-waiting", "--workspace", ws.ID, created.ID), &q)
		if q.Queued == nil || *q.Queued != 0 {
			t.Fatalf("send-waiting with nothing waiting: %+v, want queued 0", q)
		}
		if _, errOut, code := run("webhook", "send-waiting", "--workspace", ws.ID, "whk_missing"); code == 0 || !strings.Contains(errOut, "whk_missing not found") {
			t.Fatalf("send-waiting of an unknown endpoint: exit %d, %q", code, errOut)
		}
		if _, errOut, code := run("webhook", "send-waiting", created.ID); code == 0 || !strings.Contains(errOut, "workspace") {
			t.Fatalf("send-waiting without --workspace: exit %d, %q", code, errOut)
		}
		ok("webhook", "disable", "--workspace", ws.ID, created.ID)
		if _, errOut, code := run("webhook", "send-waiting", "--workspace", ws.ID, created.ID); code == 0 || !strings.Contains(errOut, "is disabled: enable it first") {
			t.Fatalf("send-waiting of a disabled endpoint: exit %d, %q", code, errOut)
		}

		for _, secret := range []string{"hdr-secret-value", "t-secret-value", "oauth-secret-value"} {
			if strings.Contains(printed.String(), secret) {
				t.Fatalf("the CLI printed the secret %q", secret)
			}
		}
	})
}
