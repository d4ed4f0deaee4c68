package tests

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// What the HTTP ports hand to the application must stay what it was after the request:
// a memory twin keeps strings as they come (Go strings are immutable), where fiber's
// zero-copy path parameters would be rewritten by the next request (web.NewApp makes
// them copies). Found when a memory order moved to the next request's workspace.
func TestRequestValuesOutliveTheirRequest(t *testing.T) {
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory})
	a := env.CreateWorkspace(t, "Alpha")
	b := env.CreateWorkspace(t, "Bravo")
	sa := env.CreateStudent(t, a, "a@example.com")
	sb := env.CreateStudent(t, b, "b@example.com")
	env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/students/%s", a, sa)).Expect(t, http.StatusOK)
	env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/students/%s", b, sb)).Expect(t, http.StatusOK)
	env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/students/%s", b, sa)).Expect(t, http.StatusNotFound)
}
