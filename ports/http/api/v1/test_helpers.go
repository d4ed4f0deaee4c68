package v1

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// TestHelperEndpoints serves POST /test_helpers/events {"type": T}: in the caller's
// sandbox, it runs the real use case behind T, so that T flows through the outbox to the
// sandbox's webhooks and events feed. Sandbox (svc_test_) keys only: a live key gets
// 403 forbidden. No scope is required beyond that: a test helper writes only sandbox
// data, which the holder of any of its keys already works with, and a read-only test
// key is what an integrator building a receiver typically holds.
func TestHelperEndpoints(s SandboxEvents, dec *web.Decoder) []Endpoint {
	h := testHelperHandlers{sandbox: s, dec: dec}
	return []Endpoint{{Method: fiber.MethodPost, Path: "/test_helpers/events", Scope: AnyScope, Handler: h.trigger}}
}

// SandboxEvents runs the real use cases behind a public event type in a workspace
// (adapters/modulelinks.SandboxScenarios); ok is false for an unknown type.
type SandboxEvents interface {
	Trigger(ctx context.Context, workspaceID string, t events.Type) (resourceID string, ok bool, err error)
}

type testHelperHandlers struct {
	sandbox SandboxEvents
	dec     *web.Decoder
}

type triggerBody struct {
	Type string `json:"type" validate:"required"`
}

// TriggeredEvent answers a test helper call: the type and the id of the resource whose
// change produced the event (its student, order, enrollment...).
type TriggeredEvent struct {
	Type       string `json:"type"`
	Livemode   bool   `json:"livemode"`
	ResourceID string `json:"resourceId"`
}

func (h testHelperHandlers) trigger(c *fiber.Ctx) error {
	// A malformed request is 422 whatever the key; a well-formed one from a live key is 403.
	if err := OnlyParams(c); err != nil {
		return err
	}
	var req triggerBody
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	typ := events.Type(strings.TrimSpace(req.Type))
	if !events.IsWebhookType(typ) { // the document's EventType; an operational type cannot be triggered (below)
		return web.Invalid("type", "type must be one of the catalogue's public event types: %s", strings.Join(publicTypeNames(), ", "))
	}
	p := PrincipalOf(c)
	if p.Livemode {
		return web.Forbidden("test helpers run only in a sandbox: use an svc_test_ key (creatorapi key create ... --test)")
	}
	id, ok, err := h.sandbox.Trigger(c.UserContext(), p.WorkspaceID, typ)
	if err != nil {
		return err
	}
	if !ok { // an operational type, or a public type without a scenario: a gap the 13-type test catches
		return web.Invalid("type", "type %s cannot be triggered: operational events come from real deliveries", typ)
	}
	return c.Status(fiber.StatusCreated).JSON(TriggeredEvent{Type: req.Type, Livemode: false, ResourceID: id})
}

func publicTypeNames() []string {
	out := make([]string, len(events.PublicTypes))
	for i, t := range events.PublicTypes {
		out[i] = string(t)
	}
	return out
}
