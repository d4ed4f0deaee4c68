// Package command changes webhook endpoints and moves deliveries along: fan-out,
// claiming, recording attempts, resending, notices and retention.
package command

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Workspaces answers what webhooks need from the workspaces module.
type Workspaces interface {
	Exists(ctx context.Context, workspaceID string) (bool, error)
	// OwnerEmail is where operational notices go.
	OwnerEmail(ctx context.Context, workspaceID string) (string, error)
}

// Waker tells the dispatcher that deliveries may be due once the transaction of ctx has
// committed (at once when ctx carries none): woken earlier, it would find nothing yet. An
// in-process hint; the dispatcher also polls, so a lost hint only costs latency.
type Waker interface {
	Wake(ctx context.Context)
}

// Handoff gives the deliveries the fan-out writes straight to this process's dispatcher,
// leased to it in the writing transaction, so that no claim has to find them. A hint as
// well: a lease the dispatcher never uses expires and the delivery is claimed then.
type Handoff interface {
	// Leasing reports whether a dispatcher runs in this process and takes handed leases.
	Leasing() bool
	// Hand gives the leases to the dispatcher once the transaction of ctx has committed
	// (never after a rollback; at once when ctx carries none).
	Hand(ctx context.Context, leases []webhooks.Lease)
}

// Mailer sends an e-mail notice. Sending twice is acceptable, losing one is not.
type Mailer interface {
	Send(ctx context.Context, n webhooks.Notice) error
}

// Retention deletes the delivery log older than a time.
type Retention interface {
	Prune(ctx context.Context, before time.Time) (int, error)
}

// Settings are the module's tunables (CREATORAPI_WEBHOOK_*).
type Settings struct {
	AllowHTTP    bool            // CREATORAPI_WEBHOOK_ALLOW_PRIVATE also allows http:// targets
	Policy       webhooks.Policy // retry schedule and Retry-After cap
	DisableAfter time.Duration   // a failing streak this long disables the endpoint
	Lease        time.Duration   // how long a claimed delivery belongs to its dispatcher
	Retention    time.Duration   // how long the delivery log is kept
	// DashboardURL is the dashboard's base (CREATORAPI_PUBLIC_URL + "/dashboard"); notices
	// link to the endpoint's delivery log there. Empty: no link.
	DashboardURL string
}

// endpointPage is the dashboard page of an endpoint's delivery log ("" without a base).
func (s Settings) endpointPage(workspaceID, webhookID string) string {
	if s.DashboardURL == "" {
		return ""
	}
	return s.DashboardURL + "/w/" + workspaceID + "/webhooks/" + webhookID + "/deliveries"
}

// Deps are the ports the commands use.
type Deps struct {
	Tx         platform.Transactor
	Subs       webhooks.Repository
	Deliveries webhooks.Deliveries
	Dispatch   webhooks.Dispatch
	Notices    webhooks.Notices
	Retention  Retention
	Workspaces Workspaces
	Mailer     Mailer
	Waker      Waker
	Handoff    Handoff            // nil: every delivery waits for a claim
	Gates      webhooks.Gates     // rate limits, order, pauses; nil: none
	Publisher  platform.Publisher // the operational events (nil: none are published)
	Alerts     webhooks.FailingAlerts
	Audit      platform.AuditTrail // endpoint changes by people and operators
	TestEvents TestEventBudget     // the workspace's test events per minute; nil: no ceiling
	IDs        platform.IDs
	Clock      platform.Clock
	Observer   platform.Observer // logging, metrics and tracing of the use cases
	Settings   Settings
	// Versions gives the payload version of a new endpoint and each version's renderer
	// (nil: v1 only).
	Versions *platform.Versions
	// Backfills and History serve backfills (nil: none can be asked for).
	Backfills webhooks.Backfills
	History   History
}

// payloadVersions are the versions deliveries are rendered at, with their renderers.
func (d Deps) payloadVersions() []platform.Major {
	if d.Versions == nil {
		return []platform.Major{{Number: 1, Payload: platform.RenderV1}}
	}
	return d.Versions.All()
}

// currentPayloadVersion is what an endpoint created at at records: the newest major
// released by then.
func (d Deps) currentPayloadVersion(at time.Time) int {
	if d.Versions == nil {
		return 1
	}
	return d.Versions.Current(at).Number
}

// render is ev's webhook body at version.
func (d Deps) render(version int, ev events.Envelope) ([]byte, error) {
	for _, m := range d.payloadVersions() {
		if m.Number == version {
			return m.Payload(ev)
		}
	}
	return nil, fmt.Errorf("no renderer of webhook payload version %d", version)
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	ok, err := d.Workspaces.Exists(ctx, workspaceID)
	if err != nil {
		return err
	}
	if !ok {
		return kernel.NotFound("workspace %s not found", workspaceID)
	}
	return nil
}
