package tests

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Racing key commands on both databases: concurrent creations all make working keys;
// concurrent revocations of one key store one time and write one audit entry (the
// UPDATE of the losers finds the key revoked, Repository.SaveRevocation says so), and
// every caller answers the stored time.
func TestKeyRacingCreatesAndRevocations(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var app keys.Application
		env := testenv.Start(t, dbURL, fx.Populate(&app))
		ctx := context.Background()
		ws := env.CreateWorkspace(t, "Race")
		const n = 6
		secrets := make([]string, n)
		ids := make([]string, n)
		errs := make([]error, n)
		concurrently(n, func(i int) {
			k, err := app.Commands.CreateKey.Handle(ctx, command.CreateKey{WorkspaceID: ws, Name: fmt.Sprintf("k%d", i), Scopes: []string{"read:courses"}})
			secrets[i], ids[i], errs[i] = k.Secret, k.ID, err
		})
		for i, err := range errs {
			if err != nil {
				t.Fatalf("create %d: %v", i, err)
			}
			env.API(secrets[i]).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		}

		revokedAt := make([]string, n)
		concurrently(n, func(i int) {
			k, err := app.Commands.RevokeKey.Handle(ctx, command.RevokeKey{WorkspaceID: ws, KeyID: ids[0]})
			errs[i] = err
			if err == nil && k.RevokedAt != nil {
				revokedAt[i] = k.RevokedAt.String()
			}
		})
		for i, err := range errs {
			if err != nil || revokedAt[i] == "" || revokedAt[i] != revokedAt[0] {
				t.Fatalf("revoke %d: %q, %v; want %q", i, revokedAt[i], err, revokedAt[0])
			}
		}
		var audited int
		if err := env.DB.Writer.GetContext(ctx, &audited, env.DB.Rebind(`SELECT COUNT(*) FROM audit_log WHERE action = 'key.revoked' AND target = ?`), ids[0]); err != nil || audited != 1 {
			t.Fatalf("%d key.revoked audit entries, %v; want 1", audited, err)
		}
		env.API(secrets[0]).Get(t, "/api/v1/courses").Expect(t, http.StatusUnauthorized)
	})
}
