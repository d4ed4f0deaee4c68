package tests

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// `creatorapi listen --format json` prints one JSON object per line: the signing secret,
// the ready line, then per event what was forwarded and the receiver's answer; the
// secret it prints verifies the delivery.
func TestListenPrintsOneJSONObjectPerLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		bin := testenv.Binary(t)
		env, base := startServing(t, dbURL)
		ws := env.CreateWorkspace(t, "JSON Academy")
		_, key := env.CreateKey(t, ws, "read:events", "write:students")
		receiver := testenv.NewReceiver(t)
		l := startListen(t, bin, "--format", "json", "--base-url", base, "--api-key", key, "--forward-to", receiver.URL+"/hook",
			"--state", filepath.Join(t.TempDir(), "listen.json"), "--since", "earliest")
		created := env.API(key).Post(t, "/api/v1/students", map[string]any{"email": "json@example.com"}).Expect(t, http.StatusCreated).JSON(t)

		deadline := time.Now().Add(20 * time.Second)
		for len(receiver.Got()) < 1 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		var lines []map[string]any
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			lines = lines[:0]
			for _, line := range l.output() {
				var obj map[string]any
				if err := json.Unmarshal([]byte(line), &obj); err != nil {
					t.Fatalf("not a JSON line: %q", line)
				}
				lines = append(lines, obj)
			}
			if len(lines) >= 4 || time.Now().After(deadline) {
				break
			}
		}
		if len(lines) != 4 {
			t.Fatalf("want 4 lines (secret, ready, forwarded, answer), got %v", lines)
		}
		secret, _ := lines[0]["signingSecret"].(string)
		if secret == "" || lines[1]["ready"] != true {
			t.Fatalf("first lines %v", lines[:2])
		}
		eventID, _ := lines[2]["event"].(string)
		if diff := cmp.Diff([]any{"student.created", eventID, float64(http.StatusOK)}, []any{lines[2]["type"], lines[3]["event"], lines[3]["status"]}); diff != "" {
			t.Fatalf("event lines: type, event, status (-want +got):\n%s\n%v", diff, lines[2:])
		}
		got := receiver.Got()
		if len(got) != 1 {
			t.Fatalf("receiver got %d deliveries, want 1", len(got))
		}
		if _, ok := testenv.VerifySVC(got[0], secret); !ok {
			t.Fatal("the delivery does not verify with the printed secret")
		}
		var ev struct {
			ID   string
			Data struct{ ID string }
		}
		if err := json.Unmarshal(got[0].Body, &ev); err != nil || ev.ID != eventID || ev.Data.ID != created["id"] {
			t.Fatalf("delivered %s (%v), want event %s of student %v", got[0].Body, err, eventID, created["id"])
		}
	})
}
