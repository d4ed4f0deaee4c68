package dashboard

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

//go:embed templates/*.html
var templateFS embed.FS

type pages map[string]*template.Template

var pageNames = []string{"message", "sign_in", "link", "workspaces", "overview", "keys", "key_created",
	"key_revoke", "members", "member_remove", "audit", "webhooks", "webhook_secret", "webhook", "deliveries",
	"delivery", "catalog"}

func parsePages() (pages, error) {
	funcs := template.FuncMap{
		"date":      func(t any) string { return formatTime(t, "2 Jan 2006") },
		"datetime":  func(t any) string { return formatTime(t, "2006-01-02 15:04:05") },
		"has":       func(list []string, s string) bool { return contains(list, s) },
		"hasPrefix": strings.HasPrefix,
		"str": func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		},
	}
	layout, err := template.New("layout").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/parts_*.html")
	if err != nil {
		return nil, fmt.Errorf("dashboard layout: %w", err)
	}
	out := pages{}
	for _, name := range pageNames {
		t, err := template.Must(layout.Clone()).ParseFS(templateFS, "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("dashboard page %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

func formatTime(v any, layout string) string {
	switch t := v.(type) {
	case time.Time:
		return t.UTC().Format(layout)
	case *time.Time:
		if t == nil {
			return ""
		}
		return t.UTC().Format(layout)
	}
	return ""
}

// view is what every page sees.
type view struct {
	Title      string
	Nav        string
	Email      string
	CSRF       string
	WS         *members.Membership
	Workspaces []members.Membership
	Owner      bool
	Base       string
	Notice     string
	Error      string
	Data       any
	TestData   bool // the test-data switch is on: links and forms keep mode=test
}

type message struct{ Text, Link, LinkText string }

// render writes page with status; the view's session fields come from the request.
func (h *Dashboard) render(c *fiber.Ctx, status int, page string, v view) error {
	if s := sessionOf(c); s != nil {
		v.Email, v.CSRF = s.Email, s.CSRFToken
	}
	if m := membershipOf(c); m != nil {
		v.WS = m
		v.Owner = m.Role.ManagesPeople()
		v.Base = Prefix + "/w/" + m.WorkspaceID
		v.Workspaces, _ = c.Locals(workspacesKey{}).([]members.Membership)
		v.TestData = testMode(c)
	}
	if msg := inputFault(c); msg != "" && (status == fiber.StatusOK || status == fiber.StatusUnprocessableEntity) {
		status, v.Error = fiber.StatusUnprocessableEntity, msg // a page re-shown for a refused input
	}
	var buf bytes.Buffer
	if err := h.pages[page].ExecuteTemplate(&buf, "layout", v); err != nil {
		return fmt.Errorf("render %s: %w", page, err)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	if c.GetRespHeader(fiber.HeaderCacheControl) == "" {
		c.Set(fiber.HeaderCacheControl, cacheControlOf(c))
	}
	return c.Status(status).Send(buf.Bytes())
}

var notFound = kernel.NotFound("page not found")

func isNotFound(err error) bool { return kernel.KindOf(err) == kernel.KindNotFound }

// page wraps a page's handler: the text rule first (a violation re-shows the page
// without its query, as 422), then fn.
func (h *Dashboard) page(fn fiber.Handler) fiber.Handler { return h.form(show(fn), fn) }

// show names the page that holds a form (or the page itself).
type show fiber.Handler

// form wraps the handler of a form: a request that breaks the text rule re-shows the
// form's page as 422 with the rule's message, and fn never runs.
func (h *Dashboard) form(page show, fn fiber.Handler) fiber.Handler {
	return h.pageErrors(func(c *fiber.Ctx) error {
		if msg := requestTextFault(c); msg != "" {
			return h.reshow(c, fiber.Handler(page), msg)
		}
		return fn(c)
	})
}

// pageErrors turns a handler's error into an HTML page: the JSON envelope is the API's.
func (h *Dashboard) pageErrors(fn fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		err := fn(c)
		if err == nil {
			return nil
		}
		switch kernel.KindOf(err) {
		case kernel.KindNotFound:
			return h.render(c, fiber.StatusNotFound, "message", view{Title: "Not found",
				Data: message{Text: "There is nothing here, or it belongs to a workspace you are not part of.", Link: Prefix + "/", LinkText: "Your workspaces"}})
		case kernel.KindForbidden:
			return h.render(c, fiber.StatusForbidden, "message", view{Title: "Not allowed",
				Data: message{Text: err.Error()}})
		case kernel.KindUnauthenticated:
			return c.Redirect(Prefix+"/sign-in", fiber.StatusSeeOther)
		}
		var fe *fiber.Error
		if errors.As(err, &fe) && fe.Code < 500 {
			return h.render(c, fe.Code, "message", view{Title: "Request refused", Data: message{Text: fe.Message}})
		}
		h.d.Logger.Error("dashboard request failed", "method", c.Method(), "path", c.Path(), "error", err)
		return h.render(c, fiber.StatusInternalServerError, "message", view{Title: "Something went wrong",
			Data: message{Text: "The change was not made. Try again in a moment."}})
	}
}

// formError is a validation message to show next to a form.
func formError(err error) (string, bool) {
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Kind == kernel.KindInvalid {
		return ke.Message, true
	}
	return "", false
}
