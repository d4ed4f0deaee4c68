package tests

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/webhooks"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A workspace has at most 50 active API keys, 25 webhook endpoints and 10 test events
// a minute; past a ceiling the answer is 422 invalid_request naming it, and another
// workspace is not affected.
func TestWorkspaceCeilings(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var app webhooks.Application
		env := testenv.Start(t, dbURL, fx.Populate(&app))
		ws := env.CreateWorkspace(t, "Academy")
		other := env.CreateWorkspace(t, "Other")
		env.Clock.Set(at(10, 0, 30))

		keysPath := fmt.Sprintf("/internal/v1/workspaces/%s/keys", ws)
		var first string
		for i := range 50 {
			id, _ := env.CreateKey(t, ws, "read:courses")
			if i == 0 {
				first = id
			}
		}
		r := env.Admin().Post(t, keysPath, map[string]any{"name": "one too many", "scopes": []string{"read:courses"}})
		expectInvalid(t, r, "keys")
		env.CreateKey(t, other, "read:courses")
		// A revoked key frees its place.
		env.Admin().Do(t, http.MethodDelete, keysPath+"/"+first, nil).Expect(t, http.StatusOK)
		env.CreateKey(t, ws, "read:courses")

		hooksPath := fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws)
		var hook string
		for i := range 25 {
			hook, _ = env.CreateWebhook(t, ws, fmt.Sprintf("https://hooks.example.com/%d", i), "order.paid")
		}
		r = env.Admin().Post(t, hooksPath, map[string]any{"url": "https://hooks.example.com/26", "events": []string{"order.paid"}})
		expectInvalid(t, r, "webhooks")
		env.CreateWebhook(t, other, "https://hooks.example.com/other", "order.paid")

		send := func() error {
			_, err := app.Commands.SendTestEvent.Handle(context.Background(), webhookcmd.SendTestEvent{WorkspaceID: ws, WebhookID: hook, Type: "order.paid"})
			return err
		}
		for i := range 10 {
			if err := send(); err != nil {
				t.Fatalf("test event %d: %v", i+1, err)
			}
		}
		if err := send(); kernel.KindOf(err) != kernel.KindInvalid {
			t.Fatalf("11th test event in a minute: %v, want an invalid-request refusal", err)
		}
		env.Clock.Set(at(10, 1, 0))
		if err := send(); err != nil {
			t.Fatalf("test event in the next minute: %v", err)
		}
	})
}
