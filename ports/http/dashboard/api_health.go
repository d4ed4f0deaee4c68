package dashboard

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/domain/deprecations"
)

// deprecatedCall is a line of the keys page's "API health": a key that calls a
// deprecated route, how often, when last, and when the route stops working.
type deprecatedCall struct {
	deprecations.Call
	KeyName string // "" when the key is not on this page
}

// apiHealth lists the workspace's deprecated calls per key, named by the keys shown.
func (h *Dashboard) apiHealth(c *fiber.Ctx, keys []query.Key) ([]deprecatedCall, error) {
	if h.d.DeprecatedCalls == nil {
		return nil, nil
	}
	calls, err := h.d.DeprecatedCalls.Handle(c.UserContext(), membershipOf(c).WorkspaceID)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, k := range keys {
		names[k.ID] = k.Name
	}
	out := make([]deprecatedCall, len(calls))
	for i, call := range calls {
		out[i] = deprecatedCall{Call: call, KeyName: names[call.KeyID]}
	}
	return out, nil
}
