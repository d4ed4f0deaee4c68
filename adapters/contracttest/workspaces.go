package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/creatorapi/creatorapi/application/workspaces/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// WorkspaceAdapters is one implementation of the workspaces module's ports over one
// store: the repository writes what the published directory reads.
type WorkspaceAdapters struct {
	Repo      workspaces.Repository
	Directory query.Directory
}

// WorkspaceFactory opens a store once per suite; cases use ids of their own.
type WorkspaceFactory func(t *testing.T) WorkspaceAdapters

// workspaceSeq keeps ids apart across cases and runs of one process.
var workspaceSeq atomic.Int64

func newWorkspace(t *testing.T, owner string, minute int) *workspaces.Workspace {
	t.Helper()
	id := fmt.Sprintf("org_contract_%d", workspaceSeq.Add(1))
	w, err := workspaces.New(id, "Workspace "+id, owner, at(minute))
	if err != nil {
		t.Fatalf("new workspace: %v", err)
	}
	return w
}

// Workspaces is the contract of workspaces.Repository and query.Directory.
func Workspaces(t *testing.T, open WorkspaceFactory) {
	a := open(t)
	ctx := context.Background()
	add := func(t *testing.T, w *workspaces.Workspace) {
		t.Helper()
		if err := a.Repo.Add(ctx, w); err != nil {
			t.Fatalf("add %s: %v", w.ID, err)
		}
	}

	t.Run("a workspace reads back as written, and exists", func(t *testing.T) {
		w := newWorkspace(t, "Owner@Example.com", 0)
		add(t, w)
		got, err := a.Repo.Get(ctx, w.ID)
		if err != nil {
			t.Fatalf("get: %+v, %v; want %+v", got, err, w)
		}
		mustMatch(t, "get", w, got)
		if ok, err := a.Directory.Exists(ctx, w.ID); !ok || err != nil {
			t.Fatalf("exists: %v, %v", ok, err)
		}
	})

	t.Run("an unknown workspace is NotFound and does not exist", func(t *testing.T) {
		_, err := a.Repo.Get(ctx, "org_nobody")
		wantKind(t, err, kernel.KindNotFound, "")
		if ok, err := a.Directory.Exists(ctx, "org_nobody"); ok || err != nil {
			t.Fatalf("exists: %v, %v", ok, err)
		}
	})

	t.Run("a second workspace with the same id is refused", func(t *testing.T) {
		w := newWorkspace(t, "a@example.com", 0)
		add(t, w)
		twin := *w
		twin.Name = "Twin"
		if err := a.Repo.Add(ctx, &twin); err == nil {
			t.Fatal("a second workspace with one id was stored")
		}
		got, _ := a.Repo.Get(ctx, w.ID)
		if got == nil || got.Name != w.Name {
			t.Fatalf("the first workspace changed: %+v", got)
		}
	})

	t.Run("find returns the known among the asked, and nothing for none", func(t *testing.T) {
		w1, w2 := newWorkspace(t, "x@example.com", 0), newWorkspace(t, "y@example.com", 1)
		add(t, w1)
		add(t, w2)
		got, err := a.Directory.Find(ctx, []string{w1.ID, "org_nobody", w2.ID})
		if err != nil || len(got) != 2 || !reflect.DeepEqual(got[w1.ID], *w1) || !reflect.DeepEqual(got[w2.ID], *w2) {
			t.Fatalf("find: %+v, %v", got, err)
		}
		if none, err := a.Directory.Find(ctx, nil); err != nil || len(none) != 0 {
			t.Fatalf("find none: %+v, %v", none, err)
		}
	})

	t.Run("founded-by compares e-mails without case and lists by id", func(t *testing.T) {
		owner := fmt.Sprintf("founder.%d@example.com", workspaceSeq.Add(1))
		w1, w2, other := newWorkspace(t, owner, 0), newWorkspace(t, owner, 1), newWorkspace(t, "else@example.com", 2)
		w2.OwnerEmail = "FOUNDER" + owner[len("founder"):] // stored as given
		for _, w := range []*workspaces.Workspace{w2, other, w1} {
			add(t, w)
		}
		got, err := a.Directory.FoundedBy(ctx, "Founder"+owner[len("founder"):])
		if err != nil || len(got) != 2 || got[0].ID != w1.ID || got[1].ID != w2.ID {
			t.Fatalf("founded by: %+v, %v", got, err)
		}
	})

	t.Run("concurrent adds of distinct workspaces all land", func(t *testing.T) {
		ws := make([]*workspaces.Workspace, 8)
		for i := range ws {
			ws[i] = newWorkspace(t, "many@example.com", i)
		}
		for i, err := range Parallel(len(ws), func(i int) error { return a.Repo.Add(ctx, ws[i]) }) {
			if err != nil {
				t.Fatalf("add %d: %v", i, err)
			}
		}
		ids := make([]string, len(ws))
		for i, w := range ws {
			ids[i] = w.ID
		}
		if got, err := a.Directory.Find(ctx, ids); err != nil || len(got) != len(ws) {
			t.Fatalf("found %d of %d: %v", len(got), len(ws), err)
		}
	})
}
