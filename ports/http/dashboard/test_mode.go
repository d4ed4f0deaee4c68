package dashboard

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	wscmd "github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// testMode is the test-data switch: ?mode=test on a page or a link, mode=test in a form.
// The membership and role checked stay the live workspace's (the sandbox has no members
// of its own and is never reachable at /dashboard/w/org_test_...).
func testMode(c *fiber.Ctx) bool { return c.Query("mode") == "test" || formValue(c, "mode") == "test" }

// dataWorkspace is the workspace whose data (keys, endpoints, deliveries) a page reads and
// writes: the live one, or under the switch its sandbox's derived id (no sandbox yet: empty
// lists, and every id 404s). One workspace per request, so a live id 404s under the switch
// and a sandbox id 404s without it.
func dataWorkspace(c *fiber.Ctx) string {
	ws := membershipOf(c).WorkspaceID
	if testMode(c) {
		return workspaces.SandboxID(ws)
	}
	return ws
}

// openDataWorkspace is dataWorkspace for a form that creates something: under the switch
// it opens (and seeds) the sandbox first, as `key create --test` does.
func (h *Dashboard) openDataWorkspace(c *fiber.Ctx) (string, error) {
	ws := membershipOf(c).WorkspaceID
	if !testMode(c) || h.d.OpenSandbox == nil {
		return dataWorkspace(c), nil
	}
	sb, err := h.d.OpenSandbox.Handle(c.UserContext(), wscmd.OpenSandbox{WorkspaceID: ws})
	if err != nil {
		return "", err
	}
	return sb.ID, nil
}

// withMode keeps the switch on a link or redirect: path (with or without a query) plus
// mode=test under the switch.
func withMode(c *fiber.Ctx, path string) string {
	if !testMode(c) {
		return path
	}
	if strings.Contains(path, "?") {
		return path + "&mode=test"
	}
	return path + "?mode=test"
}
