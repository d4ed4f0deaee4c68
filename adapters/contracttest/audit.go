package contracttest

import (
	"context"
	"fmt"
	"testing"
	"time"

	appaudit "github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/platform"
)

// AuditLog is what the audit adapters implement: commands record, the dashboard pages.
type AuditLog interface {
	platform.AuditTrail
	appaudit.Reader
}

// AuditAdapters is one implementation of the audit log with the clock it stamps with.
type AuditAdapters struct {
	Log          AuditLog
	Clock        interface{ Advance(time.Duration) }
	NewWorkspace func(t *testing.T) string
}

// AuditFactory opens a log once per suite.
type AuditFactory func(t *testing.T) AuditAdapters

// Audit is the contract of the audit log.
func Audit(t *testing.T, open AuditFactory) {
	a := open(t)
	ctx := platform.WithActor(context.Background(), platform.Actor{Email: "owner@example.com", Address: "192.0.2.1"})

	t.Run("entries page newest first with the actor, within their workspace", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		for i := range 5 {
			if err := a.Log.Record(ctx, platform.AuditEntry{WorkspaceID: ws, Action: "key.created", Target: fmt.Sprintf("key_%d", i)}); err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				a.Clock.Advance(time.Second) // some entries share a time: the id orders them
			}
		}
		if err := a.Log.Record(ctx, platform.AuditEntry{WorkspaceID: other, Action: "key.revoked", Target: "key_x"}); err != nil {
			t.Fatal(err)
		}
		var targets []string
		req := platform.PageRequest{Limit: 2}
		for pages := 0; ; pages++ {
			p, err := a.Log.Page(ctx, ws, req)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range p.Items {
				if e.WorkspaceID != ws || e.Actor != "owner@example.com" || e.Address != "192.0.2.1" || e.Action != "key.created" {
					t.Fatalf("entry %+v", e)
				}
				targets = append(targets, e.Target)
			}
			if !p.HasMore {
				break
			}
			if pages > 5 || p.Next == nil {
				t.Fatalf("paging does not end: %+v", p)
			}
			req.After = p.Next
		}
		if fmt.Sprint(targets) != "[key_4 key_3 key_2 key_1 key_0]" {
			t.Fatalf("order %v", targets)
		}
	})

	t.Run("an empty log is an empty page", func(t *testing.T) {
		p, err := a.Log.Page(ctx, a.NewWorkspace(t), platform.PageRequest{Limit: 10})
		if err != nil || len(p.Items) != 0 || p.HasMore || p.Next != nil {
			t.Fatalf("page %+v, %v", p, err)
		}
	})
}
