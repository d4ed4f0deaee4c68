package tests

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A header or parameter given twice is refused (422 invalid_request naming it), never
// read as its first value: two Authorization headers, ?limit=1&limit=2.
func TestRepeatedAuthorizationOrParameterIsRefused(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:courses", "read:students")
		env.CreatePublishedCourse(t, ws, "One")
		env.CreatePublishedCourse(t, ws, "Two")

		twice := env.API("").WithRepeatedHeader("Authorization", "Bearer "+key, "Bearer svc_not_a_key")
		r := twice.Get(t, coursesPath).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		expectParam(t, r, "Authorization")
		// The same key twice is still two headers.
		env.API("").WithRepeatedHeader("Authorization", "Bearer "+key, "Bearer "+key).Get(t, coursesPath).
			ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")

		op := fmt.Sprintf("/internal/v1/workspaces/%s/keys", ws)
		r = env.Admin().WithRepeatedHeader("Authorization", "Bearer "+testenv.AdminToken, "Bearer wrong").Get(t, op).
			ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		expectParam(t, r, "Authorization")

		for _, path := range []string{coursesPath + "?limit=1&limit=2", "/api/v1/students?email=a@example.com&email=b@example.com"} {
			r := env.API(key).Get(t, path).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
			name := strings.SplitN(strings.SplitN(path, "?", 2)[1], "=", 2)[0]
			expectParam(t, r, name)
		}
		env.API(key).Get(t, coursesPath+"?limit=1").Expect(t, http.StatusOK)
	})
}

func expectParam(t *testing.T, r testenv.Response, want string) {
	t.Helper()
	var env struct {
		Error struct {
			Param   string `json:"param"`
			Message string `json:"message"`
		} `json:"error"`
	}
	r.Decode(t, &env)
	if env.Error.Param != want || !strings.Contains(env.Error.Message, "more than once") {
		t.Fatalf("error %+v, want param %q and a message saying it was repeated", env.Error, want)
	}
}
