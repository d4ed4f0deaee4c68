package tests

import (
	"context"
	"net/http"
	"testing"
	"time"

	"go.uber.org/fx"

	memkeys "github.com/creatorapi/creatorapi/adapters/memory/keys"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	domainkeys "github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The key use cases on the in-memory adapters (testenv.Options{Adapters: testenv.Memory}):
// a key is created, authenticates the public API, is listed, paged and counted, its uses
// are buffered and flushed into the request counts, and a revocation takes effect on
// the next request; the key tables stay empty, which proves the swap.
func TestKeyCommandsOnMemoryAdapters(t *testing.T) {
	var (
		app   keys.Application
		repo  domainkeys.Repository
		usage *query.UsageBuffer
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &repo, &usage))
	if _, ok := repo.(memkeys.Repository); !ok {
		t.Fatalf("keys.Repository is %T; want the memory twin", repo)
	}
	ctx := context.Background()
	ws, other := env.CreateWorkspace(t, "Memory"), env.CreateWorkspace(t, "Other")

	_, err := app.Commands.CreateKey.Handle(ctx, command.CreateKey{WorkspaceID: ws, Name: "bad", Scopes: []string{"read:everything"}})
	if kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("unknown scope: %v", err)
	}
	created, err := app.Commands.CreateKey.Handle(ctx, command.CreateKey{WorkspaceID: ws, Name: "reader", Scopes: []string{"read:courses"}})
	if err != nil || created.Secret == "" || created.Status != "active" || created.PerMinute != domainkeys.DefaultPerMinute {
		t.Fatalf("create: %+v, %v", created, err)
	}
	for range 3 {
		env.API(created.Secret).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
	}
	got, err := app.Queries.GetKey.Handle(ctx, query.GetKey{WorkspaceID: ws, KeyID: created.ID})
	if err != nil || got.LastUsedAt == nil {
		t.Fatalf("get after use (unflushed last use): %+v, %v", got, err)
	}
	if err := usage.Flush(ctx); err != nil {
		t.Fatalf("flush: %v", err)
	}
	days, err := app.Queries.RequestsPerDay.Handle(ctx, query.RequestsPerDay{WorkspaceID: ws, From: testenv.Epoch, To: testenv.Epoch})
	if err != nil || len(days) != 1 || days[0].Requests != 3 || days[0].Name != "reader" {
		t.Fatalf("requests per day: %+v, %v", days, err)
	}

	env.Clock.Advance(time.Minute)
	if _, err := app.Commands.CreateKey.Handle(ctx, command.CreateKey{WorkspaceID: ws, Name: "writer", Scopes: []string{"read:orders"}}); err != nil {
		t.Fatalf("create second: %v", err)
	}
	page, err := app.Queries.KeyPage.Handle(ctx, query.KeyPage{WorkspaceID: ws, Page: platform.PageRequest{Limit: 1}})
	if err != nil || len(page.Items) != 1 || page.Items[0].Name != "writer" || !page.HasMore {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	page, err = app.Queries.KeyPage.Handle(ctx, query.KeyPage{WorkspaceID: ws, Page: platform.PageRequest{Limit: 1, After: page.Next}})
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != created.ID || page.HasMore {
		t.Fatalf("second page: %+v, %v", page, err)
	}

	if _, err := app.Commands.RevokeKey.Handle(ctx, command.RevokeKey{WorkspaceID: other, KeyID: created.ID}); !kernel.IsNotFound(err) {
		t.Fatalf("revoke from another workspace: %v", err)
	}
	revoked, err := app.Commands.RevokeKey.Handle(ctx, command.RevokeKey{WorkspaceID: ws, KeyID: created.ID})
	if err != nil || revoked.Status != "revoked" {
		t.Fatalf("revoke: %+v, %v", revoked, err)
	}
	env.Clock.Advance(time.Minute)
	again, err := app.Commands.RevokeKey.Handle(ctx, command.RevokeKey{WorkspaceID: ws, KeyID: created.ID})
	if err != nil || !again.RevokedAt.Equal(*revoked.RevokedAt) {
		t.Fatalf("revoke again: %+v, %v; want the first time kept", again, err)
	}
	env.API(created.Secret).Get(t, "/api/v1/courses").Expect(t, http.StatusUnauthorized)
	counts, err := app.Queries.KeyCounts.Handle(ctx, ws)
	if err != nil || counts.Active != 1 {
		t.Fatalf("counts: %+v, %v", counts, err)
	}
	list, err := app.Queries.ListKeys.Handle(ctx, ws)
	if err != nil || len(list) != 2 || list[1].Status != "revoked" {
		t.Fatalf("list: %+v, %v", list, err)
	}

	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT (SELECT COUNT(*) FROM api_keys) + (SELECT COUNT(*) FROM api_key_requests_daily)`); err != nil || rows != 0 {
		t.Fatalf("key rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
