package tests

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/platform"
	domainworkspaces "github.com/creatorapi/creatorapi/domain/workspaces"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The workspace directory remembers the workspaces it has seen exist (they are never
// deleted), so a create skips its existence SELECT. What it must never do: remember a
// no, or a yes read inside a transaction that then rolled back.
func TestWorkspaceDirectoryRemembersOnlyCommittedWorkspaces(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var dir platform.WorkspaceDirectory
		var tx platform.Transactor
		var repo domainworkspaces.Repository
		env := testenv.Start(t, dbURL, fx.Populate(&dir, &tx, &repo))
		ctx := context.Background()

		// A workspace created inside a transaction that rolls back: seen to exist there,
		// unknown once the transaction is gone.
		ghost, err := domainworkspaces.New("org_01ghostghostghostghostghost", "Ghost", "owner@example.com", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		rollback := errors.New("roll back")
		err = tx.WithinTx(ctx, func(ctx context.Context) error {
			if err := repo.Add(ctx, ghost); err != nil {
				return err
			}
			if ok, err := dir.Exists(ctx, ghost.ID); err != nil || !ok {
				t.Fatalf("inside its transaction: exists %v, %v", ok, err)
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatalf("transaction: %v", err)
		}
		if ok, err := dir.Exists(ctx, ghost.ID); err != nil || ok {
			t.Fatalf("after the rollback: exists %v, %v; want false", ok, err)
		}

		// A no is asked again: the workspace created afterwards is found.
		if err := repo.Add(ctx, ghost); err != nil {
			t.Fatal(err)
		}
		if ok, err := dir.Exists(ctx, ghost.ID); err != nil || !ok {
			t.Fatalf("after creating it: exists %v, %v; want true", ok, err)
		}

		// Through the API: a student of an unknown workspace is 404, of a known one 201,
		// twice (the second answered from memory).
		env.Admin().Post(t, "/internal/v1/workspaces/org_01unknownunknownunknownunk/students",
			map[string]string{"email": "a@example.com"}).ExpectError(t, http.StatusNotFound, "not_found")
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "write:students")
		for _, email := range []string{"a@example.com", "b@example.com"} {
			env.API(key).Post(t, "/api/v1/students", map[string]string{"email": email}).Expect(t, http.StatusCreated)
		}
	})
}
