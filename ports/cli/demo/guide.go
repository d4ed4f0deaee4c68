package demo

import (
	"fmt"
	"io"
	"strings"
)

// Guide is what `creatorapi demo` prints: the key and links, then commands that run as
// printed against this demo. Every line indented by two spaces is a shell command (a
// trailing backslash continues it on the next); every other line is prose or a "  # "
// comment. tests/demo_test.go runs those lines in order, so they stay true.
type Guide struct {
	Result
	API, Admin string // base URLs of the public and operator listeners
	AdminToken string
	SignInURL  string // a one-time dashboard sign-in link
	Dashboard  string // the dashboard's base URL (…/dashboard)
	// CLI runs a verb of this binary on the demo's data from any directory: the
	// settings the running demo was given (data folder, database, master key) and the
	// executable.
	CLI string
	// ReceiverURL is the webhook target the printed `webhook create` uses.
	ReceiverURL  string
	AllowPrivate bool // CREATORAPI_WEBHOOK_ALLOW_PRIVATE: receivers on this machine work
}

// Write prints the guide.
func (g Guide) Write(w io.Writer) error {
	state := "reusing the demo workspace seeded earlier"
	if g.Seeded {
		state = "seeded a new demo workspace"
	}
	curl := `curl -sS --fail-with-body`
	auth := `-H "Authorization: Bearer $KEY"`
	admin := `-H "Authorization: Bearer $ADMIN"`
	json := `-H 'Content-Type: application/json'`
	op := g.Admin + "/internal/v1/workspaces/" + g.WorkspaceID
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	p("creatorapi demo: %s", state)
	p("")
	p("Workspace:      %s", g.WorkspaceID)
	p("API key:        %s   (every scope; shown once)", g.Key.Secret)
	p("Rate limits:    %d requests a minute, %s a day (the documented defaults; a batch of 100 students is one request)", g.Key.PerMinute, thousands(g.Key.PerDay))
	p("Operator token: %s", g.AdminToken)
	p("")
	p("Dashboard (keys, webhooks and their delivery log; the link works once, for 15 minutes):")
	p("")
	p("    %s", g.SignInURL)
	p("")
	p("The public API (paste in a shell; jq reads ids from the answers):")
	p("")
	p("  export KEY=%s", g.Key.Secret)
	p("  %s %s/api/v1/courses %s", curl, g.API, auth)
	p("  %s \"%s/api/v1/courses?slug=watercolor-foundations\" %s", curl, g.API, auth)
	p("  %s %s/api/v1/courses/%s %s", curl, g.API, g.CourseID, auth)
	p("  %s \"%s/api/v1/students?limit=5\" %s", curl, g.API, auth)
	p("  %s -X POST %s/api/v1/students %s %s \\", curl, g.API, auth, json)
	p(`       -d '{"email":"new.lead@example.com","firstName":"New","lastName":"Lead","externalId":"crm-1001","metadata":{"crm":"hubspot"}}'`)
	p("  %s \"%s/api/v1/students?externalId=crm-1001\" %s", curl, g.API, auth)
	p("  %s -X PATCH %s/api/v1/students/%s %s %s \\", curl, g.API, g.StudentID, auth, json)
	p(`       -d '{"lastName":"Updated","metadata":{"plan":"gold"}}'`)
	p("  %s -X POST %s/api/v1/students/batch %s %s \\", curl, g.API, auth, json)
	p(`       -d '{"items":[{"email":"ada@example.com","externalId":"crm-1002"},{"externalId":"crm-1001","firstName":"Renamed"}]}'`)
	p("  ENROLLMENT=$(%s -X POST %s/api/v1/enrollments %s %s \\", curl, g.API, auth, json)
	p(`       -d '{"studentId":"%s","courseId":"%s"}' | jq -r .id)`, g.StudentID, g.CourseID)
	p("  %s -X DELETE %s/api/v1/enrollments/$ENROLLMENT %s", curl, g.API, auth)
	p("  %s \"%s/api/v1/orders?status=refunded\" %s", curl, g.API, auth)
	p("  %s %s/api/v1/analytics/summary %s", curl, g.API, auth)
	p("")
	p("Webhooks: subscribe a receiver to this workspace's events (the signing secret is shown once):")
	p("")
	if !g.AllowPrivate {
		p("  # A receiver on this machine (http://127.0.0.1:...) needs the demo started with")
		p("  # CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true; without it, use a public https URL.")
	}
	p("  %s webhook create --workspace %s --url %s \\", g.CLI, g.WorkspaceID, g.ReceiverURL)
	p("       --events order.paid,order.refunded,enrollment.created,enrollment.revoked,student.created,student.updated")
	p("")
	p("The operator API records what happens in the workspace; these emit events (order.paid,")
	p("enrollment.created, then order.refunded and enrollment.revoked):")
	p("")
	p("  export ADMIN=%s", g.AdminToken)
	p("  ORDER=$(%s -X POST %s/orders %s %s \\", curl, op, admin, json)
	p(`       -d '{"studentId":"%s","currency":"usd","items":[{"courseId":"%s","amount":4900}]}' | jq -r .id)`, g.StudentID, g.CourseID)
	p("  %s -X POST %s/orders/$ORDER/refunds %s %s -d '{}'", curl, op, admin, json)
	p("")
	p("Watch the deliveries: sign in with the link above, then Webhooks, the endpoint, Deliveries")
	p("(every attempt with its status, latency, payload and headers; Resend is there too):")
	p("")
	p("    %s/w/%s/webhooks", g.Dashboard, g.WorkspaceID)
	p("")
	p("A new sign-in link later: %s dashboard link --workspace %s", g.CLI, g.WorkspaceID)
	p("")
	_, err := io.WriteString(w, b.String())
	return err
}

// thousands writes n with a comma between thousands (1,000), as the docs do.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
