package dashboard

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// home is the workspace switcher; with one workspace it goes straight there.
func (h *Dashboard) home(c *fiber.Ctx) error {
	s, err := h.loadSession(c)
	if err != nil {
		return err
	}
	if s == nil {
		return c.Redirect(Prefix+"/sign-in", fiber.StatusSeeOther)
	}
	list, err := h.d.Members.Queries.Memberships.Handle(c.UserContext(), s.Email)
	if err != nil {
		return err
	}
	if len(list) == 1 {
		return c.Redirect(Prefix+"/w/"+list[0].WorkspaceID+"/", fiber.StatusSeeOther)
	}
	return h.render(c, fiber.StatusOK, "workspaces", view{Title: "Your workspaces", Workspaces: list})
}

type signInData struct{ Email string }

func (h *Dashboard) signInForm(c *fiber.Ctx) error {
	v := view{Title: "Sign in", CSRF: h.anonymousCSRF(c), Data: signInData{}}
	if c.Query("notice") == "signed-out" {
		v.Notice = "You are signed out."
	}
	return h.render(c, fiber.StatusOK, "sign_in", v)
}

// requestLink answers the same page whether or not the address has an account.
func (h *Dashboard) requestLink(c *fiber.Ctx) error {
	if err := h.checkAnonymousCSRF(c); err != nil {
		return err
	}
	email := c.FormValue("email")
	_, err := h.d.Members.Commands.RequestLink.Handle(c.UserContext(), command.RequestLink{Email: email, Address: web.ClientIP(c)})
	var tooMany *command.TooManyRequests
	switch {
	case errors.As(err, &tooMany):
		c.Set(fiber.HeaderRetryAfter, "900")
		return h.render(c, fiber.StatusTooManyRequests, "message", view{Title: "Too many requests",
			Data: message{Text: "Too many sign-in links were asked for from here. Wait 15 minutes, then try again."}})
	case err != nil:
		if msg, ok := formError(err); ok {
			return h.render(c, fiber.StatusUnprocessableEntity, "sign_in", view{Title: "Sign in", CSRF: h.anonymousCSRF(c),
				Error: msg, Data: signInData{Email: email}})
		}
		// A failure to queue is logged; the page stays the same so that it reveals nothing.
		h.d.Logger.Error("sign-in request not queued", "error", err)
	}
	return h.render(c, fiber.StatusOK, "message", view{Title: "Check your e-mail",
		Data: message{Text: "If this address belongs to a workspace, a sign-in link is on its way. It works once, for 15 minutes."}})
}

type linkData struct {
	Token      string
	Invitation *members.Invitation // an invitation link's: shown with "Accept invitation"
}

// linkPage shows the "Sign in" button, or the invitation and its "Accept invitation"
// button: opening a link (as mail scanners do) uses nothing up and accepts nothing.
func (h *Dashboard) linkPage(c *fiber.Ctx) error {
	token := c.Query("token")
	page, err := h.d.Members.Queries.LinkPage.Handle(c.UserContext(), token)
	if err != nil {
		return err
	}
	title := "Sign in"
	if page.Invitation != nil {
		title = "Invitation"
	}
	return h.render(c, fiber.StatusOK, "link", view{Title: title, CSRF: h.anonymousCSRF(c),
		Data: linkData{Token: token, Invitation: page.Invitation}})
}

func (h *Dashboard) signIn(c *fiber.Ctx) error {
	if err := h.checkAnonymousCSRF(c); err != nil {
		return err
	}
	res, err := h.d.Members.Commands.SignIn.Handle(c.UserContext(), command.SignIn{Token: c.FormValue("token"), Address: web.ClientIP(c)})
	if kernel.KindOf(err) == kernel.KindUnauthenticated {
		return h.render(c, fiber.StatusUnauthorized, "message", view{Title: "Link expired",
			Data: message{Text: "This sign-in link has expired or has already been used.", Link: Prefix + "/sign-in", LinkText: "Ask for a new link"}})
	}
	if err != nil {
		return err
	}
	h.cookies.set(c, h.cookies.session, res.SessionToken, h.d.Clock.Now().Add(h.cookies.sessionLifetime))
	return c.Redirect(Prefix+"/w/"+res.WorkspaceID+"/", fiber.StatusSeeOther)
}

func (h *Dashboard) signOut(c *fiber.Ctx) error {
	s, err := h.loadSession(c)
	if err != nil {
		return err
	}
	if s != nil {
		if !sameToken(formValue(c, "csrf"), s.CSRFToken) {
			return csrfRefused
		}
		_, err := h.d.Members.Commands.SignOut.Handle(c.UserContext(), command.SignOut{
			SessionToken: c.Cookies(h.cookies.session), WorkspaceID: c.FormValue("workspace")})
		if err != nil {
			return err
		}
	}
	h.cookies.clear(c, h.cookies.session)
	return c.Redirect(Prefix+"/sign-in?notice=signed-out", fiber.StatusSeeOther)
}
