// Package dashboard is the workspace dashboard under /dashboard/ on the public listener:
// server-rendered HTML (html/template, embedded with the stylesheet and a few lines of
// JavaScript) over the same application handlers as the CLI and the operator API. It
// decodes forms, calls a handler and renders; every rule lives in the application.
package dashboard

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	analyticsquery "github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks"
	wscmd "github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/domain/deprecations"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// Prefix is where the dashboard lives.
const Prefix = "/dashboard"

// Deps are the application services the dashboard adapts.
type Deps struct {
	PublicURL string // CREATORAPI_PUBLIC_URL; https makes cookies Secure and __Host- prefixed
	Members   members.Application
	Keys      keys.Application
	Audit     audit.Application
	Webhooks  webhooks.Application
	Summary   platform.Handler[analyticsquery.GetSummary, analyticsquery.Summary] // the overview's analytics (nil: not shown)
	Daily     platform.Handler[analyticsquery.GetSummary, analyticsquery.Daily]
	// DeprecatedCalls lists the workspace's calls of deprecated routes per key (the keys
	// page's "API health"; nil: not shown).
	DeprecatedCalls platform.Handler[string, []deprecations.Call]
	// RequestHeaders rebuilds the headers an attempt at at sent (the signer is an adapter).
	RequestHeaders func(ctx context.Context, workspaceID string, d *domainwebhooks.Delivery, at time.Time) (http.Header, error)
	Clock          platform.Clock
	Logger         *slog.Logger
	// CSRFKey signs the double-submit tokens of the forms shown before sign-in (32+ bytes,
	// the same on every instance: derived from the master key).
	CSRFKey []byte
	// OpenSandbox opens (and seeds) the workspace's sandbox for its first test key.
	OpenSandbox platform.Handler[wscmd.OpenSandbox, wscmd.OpenedSandbox]
}

// Dashboard holds the parsed templates and the cookie rules.
type Dashboard struct {
	d         Deps
	pages     pages
	cookies   cookieRules
	anonymous anonymousTokens
}

// New parses the embedded templates.
func New(d Deps) (*Dashboard, error) {
	p, err := parsePages()
	if err != nil {
		return nil, err
	}
	anonymous, err := newAnonymousTokens(d.CSRFKey)
	if err != nil {
		return nil, err
	}
	return &Dashboard{d: d, pages: p, cookies: newCookieRules(strings.HasPrefix(d.PublicURL, "https://")), anonymous: anonymous}, nil
}

// Register mounts every dashboard route on app.
func (h *Dashboard) Register(app *fiber.App) {
	g := app.Group(Prefix, securityHeaders, h.pageErrors(h.checkPath))
	g.Get("/assets/:name", serveAsset)

	g.Get("/", h.page(h.home))
	g.Get("/sign-in", h.page(h.signInForm))
	g.Post("/sign-in", h.form(show(h.signInForm), h.requestLink))
	g.Get("/sign-in/link", h.page(h.linkPage))
	g.Post("/sign-in/link", h.form(show(h.linkPage), h.signIn))
	g.Post("/sign-out", h.form(show(h.home), h.signOut))

	// Every route below: a session, membership and (POST) the CSRF token first, then the
	// text rule, then the handler. form names the page a refused form is re-shown on.
	w := g.Group("/w/:org", h.pageErrors(h.requireMember))
	w.Get("/", h.page(h.overview))
	w.Get("/keys", h.page(h.keysPage))
	w.Post("/keys", h.form(show(h.keysPage), h.createKey))
	w.Get("/keys/:id/revoke", h.page(h.confirmRevoke))
	w.Post("/keys/:id/revoke", h.form(show(h.confirmRevoke), h.revokeKey))
	w.Get("/webhooks", h.page(h.webhooksPage))
	w.Post("/webhooks", h.form(show(h.webhooksPage), h.createWebhook))
	w.Get("/webhooks/events", h.page(h.catalogPage))
	w.Get("/webhooks/:id", h.page(h.endpointPage))
	w.Post("/webhooks/:id", h.form(show(h.endpointPage), h.updateWebhook))
	w.Post("/webhooks/:id/disable", h.form(show(h.endpointPage), h.setWebhookStatus(false)))
	w.Post("/webhooks/:id/enable", h.form(show(h.endpointPage), h.setWebhookStatus(true)))
	w.Post("/webhooks/:id/rotate", h.form(show(h.endpointPage), h.rotateSecret))
	w.Post("/webhooks/:id/test", h.form(show(h.endpointPage), h.sendTestEvent))
	w.Post("/webhooks/:id/pacing", h.form(show(h.endpointPage), h.setPacing))
	w.Post("/webhooks/:id/send-waiting", h.form(show(h.endpointPage), h.sendWaiting))
	w.Post("/webhooks/:id/receiver", h.form(show(h.endpointPage), h.setReceiver))
	w.Post("/webhooks/:id/backfill", h.form(show(h.endpointPage), h.startBackfill))
	w.Post("/webhooks/:id/recover", h.form(show(h.deliveriesPage), h.recoverDeliveries))
	w.Get("/webhooks/:id/deliveries", h.page(h.deliveriesPage))
	w.Get("/webhooks/:id/deliveries/:did", h.page(h.deliveryPage))
	w.Post("/webhooks/:id/deliveries/:did/resend", h.form(show(h.deliveryPage), h.resendDelivery))
	w.Get("/members", h.page(h.membersPage))
	w.Post("/members", h.form(show(h.membersPage), h.invite))
	w.Get("/members/remove", h.form(show(h.membersPage), h.confirmRemove))
	w.Post("/members/remove", h.form(show(h.membersPage), h.removeMember))
	w.Get("/audit", h.page(h.auditPage))
	g.All("/*", h.page(func(c *fiber.Ctx) error { return notFound }))
}
