package tests

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestAuthenticationFailures(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		keyID, key := env.CreateKey(t, ws, "read:courses")

		for name, header := range map[string]string{
			"no header":           "",
			"basic scheme":        "Basic dXNlcjpwYXNz",
			"bearer without key":  "Bearer ",
			"not a key":           "Bearer hello",
			"typo in key":         "Bearer " + key[:len(key)-1] + flipChar(key[len(key)-1]),
			"well formed unknown": "Bearer " + keyOfAnotherService(t),
		} {
			c := env.API("")
			if header != "" {
				c = c.WithHeader("Authorization", header)
			}
			r := c.Get(t, "/api/v1/courses").ExpectError(t, http.StatusUnauthorized, "unauthorized")
			if r.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s: 401 without WWW-Authenticate", name)
			}
		}
		// Scheme is case-insensitive per RFC 7235.
		env.API("").WithHeader("Authorization", "bearer "+key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)

		// Revocation takes effect on the very next request.
		env.API(key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		env.Admin().Do(t, http.MethodDelete, fmt.Sprintf("/internal/v1/workspaces/%s/keys/%s", ws, keyID), nil).Expect(t, http.StatusOK)
		r := env.API(key).Get(t, "/api/v1/courses").ExpectError(t, http.StatusUnauthorized, "unauthorized")
		if !strings.Contains(string(r.Body), "revoked") {
			t.Fatalf("revoked key message: %s", r.Body)
		}
	})
}

// keyOfAnotherService returns a real, well-formed key that this service never issued.
func keyOfAnotherService(t *testing.T) string {
	other := testenv.Start(t, testenv.NewSQLiteURL(t))
	_, key := other.CreateKey(t, other.CreateWorkspace(t, "Elsewhere"), "read:courses")
	return key
}

func flipChar(b byte) string {
	if b == 'a' {
		return "b"
	}
	return "a"
}

func TestLastUsedIsRecordedWithoutWritingPerRequest(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		keyID, key := env.CreateKey(t, ws, "read:courses")
		env.Clock.Advance(90 * time.Second)
		env.API(key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)

		var stored *time.Time
		if err := env.DB.Reader.Get(&stored, env.DB.Reader.Rebind(`SELECT last_used_at FROM api_keys WHERE id = ?`), keyID); err != nil {
			t.Fatal(err)
		}
		if stored != nil {
			t.Fatalf("last_used_at written on the request path: %v", stored)
		}
		var list struct {
			Data []struct {
				ID         string     `json:"id"`
				LastUsedAt *time.Time `json:"lastUsedAt"`
			} `json:"data"`
		}
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/keys", ws)).Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 1 || list.Data[0].LastUsedAt == nil || !list.Data[0].LastUsedAt.Equal(testenv.Epoch.Add(90*time.Second)) {
			t.Fatalf("key list lastUsedAt %+v, want %v", list.Data, testenv.Epoch.Add(90*time.Second))
		}
	})
}

func TestKeySecretIsShownOnceAndOnlyHashed(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:courses")
		list := env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/keys", ws)).Expect(t, http.StatusOK)
		if strings.Contains(string(list.Body), key) || strings.Contains(string(list.Body), `"secret"`) {
			t.Fatalf("key list reveals the secret: %s", list.Body)
		}
		var n int
		if err := env.DB.Reader.Get(&n, env.DB.Reader.Rebind(`SELECT COUNT(*) FROM api_keys WHERE secret_hash = ? OR lookup = ?`), []byte(key), key); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatal("the plaintext secret is stored")
		}
	})
}
