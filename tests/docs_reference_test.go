package tests

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The reference at /docs is rendered on the server from the OpenAPI document: it shows
// every operation, scope, error code, rate-limit header and webhook type the document
// has, explains verification, and loads nothing from another origin.
func TestDocsReferenceRendersTheDocument(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	resp := env.API("").Get(t, "/docs").Expect(t, http.StatusOK)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("Content-Type %q", ct)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Fatalf("Content-Security-Policy %q", csp)
	}
	page := string(resp.Body)
	doc := loadContract(t)
	var want []string
	for _, op := range doc.Operations {
		want = append(want, op.Method+`</span> <code>`+op.Path+`</code>`)
	}
	want = append(want, doc.WebhookTypes()...)
	want = append(want, testenv.AllScopes()...)
	want = append(want,
		"unauthorized", "forbidden", "not_found", "method_not_allowed", "rate_limited", "invalid_request", "internal_error",
		"X-RateLimit-Limit", "X-RateLimit-Daily-Reset", "Retry-After", "retryAfterSeconds", "X-Request-Id",
		"X-SVC-Signature", "X-SVC-Event", "X-SVC-Delivery", "webhook-id", "webhook-timestamp", "webhook-signature",
		">Authentication<", ">Pagination<", ">Errors<", ">Rate limits<", ">Webhooks<", ">Verifying a delivery<",
		"300 seconds", "has_more", "cursor", "updatedSince", "createdBefore",
	)
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("/docs does not show %q", w)
		}
	}
	if m := regexp.MustCompile(`(?i)<script|(src|href)="(https?:)?//`).FindString(page); m != "" {
		t.Errorf("/docs loads something from elsewhere or runs a script: %q", m)
	}
	css := env.API("").Get(t, "/docs/reference.css").Expect(t, http.StatusOK)
	if !strings.HasPrefix(css.Header.Get("Content-Type"), "text/css") || len(css.Body) == 0 {
		t.Fatalf("stylesheet: %q %d bytes", css.Header.Get("Content-Type"), len(css.Body))
	}
}
