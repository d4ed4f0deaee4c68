package v1

import (
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
func TestHelperEndpoints(s SandboxScenarios, dec *web.Decoder) []Endpoint {
	h := testHelperHandlers{scenarios: s.byType(), dec: dec}
	return []Endpoint{{Method: fiber.MethodPost, Path: "/test_helpers/events", Scope: AnyScope, Handler: h.trigger}}
}

type testHelperHandlers struct {
	scenarios map[events.Type]scenario
	dec       *web.Decoder
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
	p := PrincipalOf(c)
	if p.Livemode {
		return web.Forbidden("test helpers run only in a sandbox: use an svc_test_ key (creatorapi key create ... --test)")
	}
	if err := OnlyParams(c); err != nil {
		return err
	}
	var req triggerBody
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	run, ok := h.scenarios[events.Type(strings.TrimSpace(req.Type))]
	if !ok {
		return web.Invalid("type", "type must be one of the catalogue's public event types: %s", strings.Join(publicTypeNames(), ", "))
	}
	id, err := run(c.UserContext(), p.WorkspaceID)
	if err != nil {
		return err
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
