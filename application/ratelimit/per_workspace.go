package ratelimit

import "context"

// WorkspaceBudget is an allowance of one kind of action per workspace and clock
// minute (test webhook events), counted in the same store as the keys' quotas, so it
// holds across instances.
type WorkspaceBudget struct {
	limiter *Limiter
	name    string
	quota   Quota
}

// PerWorkspace returns the budget of perMinute actions called name per workspace.
func (l *Limiter) PerWorkspace(name string, perMinute int) WorkspaceBudget {
	// The day bucket never binds: a minute's allowance all day long.
	return WorkspaceBudget{limiter: l, name: name, quota: Quota{PerMinute: perMinute, PerDay: perMinute * 24 * 60}}
}

// Take counts one action of workspaceID, or refuses it (counting nothing) and says
// in how many seconds the minute resets.
func (b WorkspaceBudget) Take(ctx context.Context, workspaceID string) (allowed bool, retryAfterSeconds int, err error) {
	d, err := b.limiter.take(ctx, "ws:"+b.name+":"+workspaceID, b.quota)
	if err != nil {
		return false, 0, err
	}
	return d.Allowed, d.RetryAfter, nil
}
