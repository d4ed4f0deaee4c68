package dashboard

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

// The API's text rule (web.TextFault) on everything a dashboard request carries: the
// path, every query parameter and every form field, names and values. page and form
// run it in front of every route, so no handler and no store sees text that PostgreSQL
// refuses or SQLite would keep. No dashboard field is multiline.

// fieldLabels names the fields of the dashboard's own forms and links. Any other name
// is described, never repeated, so the message does not speak a visitor's text.
var fieldLabels = map[string]string{
	"name": "Name", "scopes": "Scopes", "email": "E-mail", "role": "Role", "url": "URL",
	"events": "Event types", "type": "Event type", "since": "Since", "token": "Sign-in link",
	"csrf": "Form token", "workspace": "Workspace", "status": "Status", "q": "Search",
	"before": "Page position", "from": "From", "to": "To", "notice": "Notice", "recovered": "Recovered",
	"header": "Header", "token_url": "Token URL", "client_id": "Client id", "client_secret": "Client secret", "scope": "Scope",
}

// refusedSuffix ends every message of the rule: the request changed nothing.
const refusedSuffix = " Nothing was changed: correct it and try again."

// requestTextFault is the message for the first value of the query or the form body
// that breaks the rule, or "".
func requestTextFault(c *fiber.Ctx) string {
	if msg := argsFault(c.Request().URI().QueryArgs(), "parameter of the address"); msg != "" {
		return msg
	}
	if msg := argsFault(c.Request().PostArgs(), "field of the form"); msg != "" {
		return msg
	}
	if !strings.HasPrefix(string(c.Request().Header.ContentType()), fiber.MIMEMultipartForm) {
		return ""
	}
	f, err := c.MultipartForm()
	if err != nil {
		return "" // unreadable: no handler finds a value in it either
	}
	for name, values := range f.Value {
		for _, v := range values {
			if msg := valueFault(name, v, "field of the form"); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func argsFault(args *fasthttp.Args, kind string) string {
	var msg string
	args.VisitAll(func(k, v []byte) {
		if msg == "" {
			msg = valueFault(string(k), string(v), kind)
		}
	})
	return msg
}

// valueFault names the field by its label, or by its kind when the dashboard has no
// such field.
func valueFault(name, value, kind string) string {
	if fault := web.TextFault(name, false); fault != "" {
		return "The name of a " + kind + " " + fault + "." + refusedSuffix
	}
	fault := web.TextFault(value, false)
	if fault == "" {
		return ""
	}
	label, ok := fieldLabels[name]
	if !ok {
		label = "A " + kind
	}
	return label + " " + fault + "." + refusedSuffix
}

// pathFault is the rule on the path, as sent and percent-decoded: ids and the
// workspace are path segments.
func pathFault(c *fiber.Ctx) string {
	for _, p := range [][]byte{c.Request().URI().PathOriginal(), c.Request().URI().Path()} {
		if fault := web.TextFault(string(p), false); fault != "" {
			return "The address " + fault + "." + refusedSuffix
		}
	}
	return ""
}

// checkPath answers 422 for a path that breaks the rule, before anything reads a
// segment of it (the membership check reads the workspace).
func (h *Dashboard) checkPath(c *fiber.Ctx) error {
	if msg := pathFault(c); msg != "" {
		c.Locals(inputFaultKey{}, msg)
		return h.render(c, fiber.StatusUnprocessableEntity, "message", view{Title: "Request refused",
			Data: message{Text: "Nothing was changed.", Link: Prefix + "/", LinkText: "Your workspaces"}})
	}
	return c.Next()
}

type inputFaultKey struct{}

// inputFault is the rule's message of this request, once refused.
func inputFault(c *fiber.Ctx) string {
	msg, _ := c.Locals(inputFaultKey{}).(string)
	return msg
}

// reshow answers a request that broke the rule: show (the page of the form, or the page
// itself) runs without the query and the form body, and render turns it into a 422
// with the message. When show has no page to give (a redirect, nothing found), a plain
// 422 page says the same; a refusal (a developer on an owner's form) stays one.
func (h *Dashboard) reshow(c *fiber.Ctx, show fiber.Handler, msg string) error {
	c.Request().URI().QueryArgs().Reset()
	c.Request().URI().SetQueryString("")
	c.Request().PostArgs().Reset()
	c.Request().ResetBody()
	c.Locals(inputFaultKey{}, msg)
	err := show(c)
	if err == nil && c.Response().StatusCode() == fiber.StatusUnprocessableEntity {
		return nil
	}
	if err != nil && !isNotFound(err) {
		return err
	}
	c.Response().Header.Del(fiber.HeaderLocation)
	return h.render(c, fiber.StatusUnprocessableEntity, "message", view{Title: "Request refused",
		Data: message{Text: "Nothing was changed.", Link: Prefix + "/", LinkText: "Your workspaces"}})
}

// formValue reads a field from the form body only (urlencoded or multipart), never
// from the query string: a token in a URL reaches logs, history and Referer headers.
func formValue(c *fiber.Ctx, name string) string {
	if v := c.Request().PostArgs().Peek(name); v != nil {
		return string(v)
	}
	if !strings.HasPrefix(string(c.Request().Header.ContentType()), fiber.MIMEMultipartForm) {
		return ""
	}
	if f, err := c.MultipartForm(); err == nil && len(f.Value[name]) > 0 {
		return f.Value[name][0]
	}
	return ""
}

// formValues reads every value of a repeated field from the form body.
func formValues(c *fiber.Ctx, name string) []string {
	var out []string
	for _, v := range c.Request().PostArgs().PeekMulti(name) {
		out = append(out, string(v))
	}
	if len(out) == 0 && strings.HasPrefix(string(c.Request().Header.ContentType()), fiber.MIMEMultipartForm) {
		if f, err := c.MultipartForm(); err == nil {
			out = append(out, f.Value[name]...)
		}
	}
	return out
}
