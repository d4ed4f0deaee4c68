package dashboard

import (
	"time"

	"github.com/gofiber/fiber/v2"

	memberquery "github.com/creatorapi/creatorapi/application/members/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// cookieRules: HttpOnly, SameSite=Lax always; Secure and the __Host- prefix (Path=/, no
// Domain) when the public URL is https.
type cookieRules struct {
	secure          bool
	session, csrf   string
	sessionLifetime time.Duration
}

func newCookieRules(secure bool) cookieRules {
	r := cookieRules{secure: secure, session: "creatorapi_session", csrf: "creatorapi_csrf", sessionLifetime: members.AbsoluteTimeout}
	if secure {
		r.session, r.csrf = "__Host-"+r.session, "__Host-"+r.csrf
	}
	return r
}

func (r cookieRules) set(c *fiber.Ctx, name, value string, expires time.Time) {
	c.Cookie(&fiber.Cookie{Name: name, Value: value, Path: "/", Expires: expires,
		HTTPOnly: true, Secure: r.secure, SameSite: fiber.CookieSameSiteLaxMode})
}

func (r cookieRules) clear(c *fiber.Ctx, name string) {
	c.Cookie(&fiber.Cookie{Name: name, Value: "", Path: "/", Expires: time.Unix(1, 0),
		HTTPOnly: true, Secure: r.secure, SameSite: fiber.CookieSameSiteLaxMode})
}

type sessionKey struct{}
type membershipKey struct{}
type workspacesKey struct{}

func sessionOf(c *fiber.Ctx) *memberquery.Session {
	s, _ := c.Locals(sessionKey{}).(*memberquery.Session)
	return s
}

func membershipOf(c *fiber.Ctx) *members.Membership {
	m, _ := c.Locals(membershipKey{}).(*members.Membership)
	return m
}

// loadSession finds the live session of the cookie, if any, and puts the person in
// the request's context as the actor of whatever they change.
func (h *Dashboard) loadSession(c *fiber.Ctx) (*memberquery.Session, error) {
	token := c.Cookies(h.cookies.session)
	if token == "" {
		return nil, nil
	}
	s, err := h.d.Members.Queries.Session.Handle(c.UserContext(), token)
	if kernel.KindOf(err) == kernel.KindUnauthenticated {
		h.cookies.clear(c, h.cookies.session)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.Locals(sessionKey{}, &s)
	c.SetUserContext(platform.WithActor(c.UserContext(), platform.Actor{Email: s.Email, Address: web.ClientIP(c)}))
	return &s, nil
}

// requireMember guards /dashboard/w/:org/...: a session (else the sign-in page), the
// person's membership of org (else 404, as for a workspace that does not exist), and on
// every POST the session's CSRF token (else 403 and nothing changes).
func (h *Dashboard) requireMember(c *fiber.Ctx) error {
	s, err := h.loadSession(c)
	if err != nil {
		return err
	}
	if s == nil {
		return c.Redirect(Prefix+"/sign-in", fiber.StatusSeeOther)
	}
	if c.Method() == fiber.MethodPost && !sameToken(formValue(c, "csrf"), s.CSRFToken) {
		return csrfRefused
	}
	m, err := h.d.Members.Queries.Membership.Handle(c.UserContext(), memberquery.MembershipOf{WorkspaceID: c.Params("org"), Email: s.Email})
	if err != nil {
		return err
	}
	c.Locals(membershipKey{}, &m)
	list, err := h.d.Members.Queries.Memberships.Handle(c.UserContext(), s.Email)
	if err != nil {
		return err
	}
	c.Locals(workspacesKey{}, list)
	return c.Next()
}
