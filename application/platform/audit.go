package platform

import "context"

// Actor is who asks for a change: a person signed in to the dashboard, or an operator
// through the operator API or the CLI. Ports put it in the context; the audit trail reads it.
type Actor struct {
	Email   string // the person's address; empty for operators
	Name    string // how the audit log names an operator surface: "operator API", "CLI"
	Address string // the client address the request came from, when there is one
}

// Who is the actor as the audit log shows it.
func (a Actor) Who() string {
	if a.Email != "" {
		return a.Email
	}
	if a.Name != "" {
		return a.Name
	}
	return "system"
}

// WithActor carries a in ctx.
func WithActor(ctx context.Context, a Actor) context.Context { return withValue(ctx, a) }

// ActorFrom returns the actor in ctx (the zero Actor, shown as "system", when none).
func ActorFrom(ctx context.Context) Actor { return valueOf[Actor](ctx) }

// AuditEntry is one change to keys, members, webhooks or sign-in state.
type AuditEntry struct {
	WorkspaceID string
	Action      string // e.g. key.created, member.removed, session.started
	Target      string // the id or address the action was about
	Detail      string // a short human description, never a secret
}

// AuditTrail records entries on the transaction in ctx, with the actor of ctx and the
// current time, so that an entry commits, or rolls back, with its change.
type AuditTrail interface {
	Record(ctx context.Context, e AuditEntry) error
}
