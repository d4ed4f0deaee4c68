package dashboard

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	domainkeys "github.com/creatorapi/creatorapi/domain/keys"
)

type scopeBox struct {
	Name    string
	Checked bool
}

type keysData struct {
	Name   string
	Scopes []scopeBox
	Keys   []query.Key
	Next   string // the position of the next page, when there is one
	Health []deprecatedCall
	Test   bool // the test-data switch: the sandbox's keys (?mode=test)
}

// keysPerPage keeps the page fast with thousands of keys.
const keysPerPage = 50

func (h *Dashboard) keysPage(c *fiber.Ctx) error {
	return h.renderKeys(c, fiber.StatusOK, "", "", nil)
}

func (h *Dashboard) renderKeys(c *fiber.Ctx, status int, errText, name string, checked []string) error {
	page, err := h.d.Keys.Queries.KeyPage.Handle(c.UserContext(), query.KeyPage{WorkspaceID: dataWorkspace(c),
		Page: platform.PageRequest{Limit: keysPerPage, After: parsePosition(c.Query("before"))}})
	if err != nil {
		return err
	}
	on := map[string]bool{}
	for _, s := range checked {
		on[s] = true
	}
	boxes := make([]scopeBox, len(domainkeys.AllScopes))
	for i, s := range domainkeys.AllScopes {
		boxes[i] = scopeBox{Name: string(s), Checked: on[string(s)]}
	}
	health, err := h.apiHealth(c, page.Items)
	if err != nil {
		return err
	}
	return h.render(c, status, "keys", view{Title: "API keys", Nav: "keys", Error: errText,
		Notice: keyNotices.of(c), Data: keysData{Name: name, Scopes: boxes, Keys: page.Items, Next: formatPosition(page.Next), Health: health, Test: testMode(c)}})
}

type createdData struct {
	Name   string
	Secret string
	Scopes []domainkeys.Scope
}

// createKey shows the secret in the response to the POST, once: it is in no URL, no
// redirect, no log, and the page is not stored by the browser.
func (h *Dashboard) createKey(c *fiber.Ctx) error {
	name := formValue(c, "name")
	scopes := formValues(c, "scopes")
	ws, err := h.openDataWorkspace(c)
	if err != nil {
		return err
	}
	k, err := h.d.Keys.Commands.CreateKey.Handle(c.UserContext(), command.CreateKey{
		WorkspaceID: ws, Name: name, Scopes: scopes})
	if msg, ok := formError(err); ok {
		return h.renderKeys(c, fiber.StatusUnprocessableEntity, msg, name, scopes)
	}
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return h.render(c, fiber.StatusCreated, "key_created", view{Title: "Key created", Nav: "keys",
		Data: createdData{Name: k.Name, Secret: k.Secret, Scopes: k.Scopes}})
}

// findKey returns the workspace's key or NotFound (another workspace's id included).
func (h *Dashboard) findKey(c *fiber.Ctx) (query.Key, error) {
	return h.d.Keys.Queries.GetKey.Handle(c.UserContext(), query.GetKey{WorkspaceID: dataWorkspace(c), KeyID: c.Params("id")})
}

func (h *Dashboard) confirmRevoke(c *fiber.Ctx) error {
	k, err := h.findKey(c)
	if err != nil {
		return err
	}
	return h.render(c, fiber.StatusOK, "key_revoke", view{Title: "Revoke key", Nav: "keys", Data: k})
}

func (h *Dashboard) revokeKey(c *fiber.Ctx) error {
	m := membershipOf(c)
	if _, err := h.d.Keys.Commands.RevokeKey.Handle(c.UserContext(), command.RevokeKey{WorkspaceID: dataWorkspace(c), KeyID: c.Params("id")}); err != nil {
		return err
	}
	return c.Redirect(withMode(c, Prefix+"/w/"+m.WorkspaceID+"/keys?notice=revoked"), fiber.StatusSeeOther)
}
