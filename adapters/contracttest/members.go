package contracttest

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// MemberAdapters is one implementation of the members module's ports over one store.
type MemberAdapters struct {
	Rows     members.Rows
	Links    members.Links
	Outbox   members.LinkRequests
	Sessions members.Sessions
	// NewWorkspace returns the id of a fresh workspace the store accepts.
	NewWorkspace func(t *testing.T) string
}

// MemberFactory opens a store once per suite.
type MemberFactory func(t *testing.T) MemberAdapters

// personSeq keeps addresses apart across cases and runs.
var personSeq atomic.Int64

func person(prefix string) string {
	return fmt.Sprintf("%s.%d.%d@example.com", prefix, time.Now().UnixNano(), personSeq.Add(1))
}

// MemberRows is the contract of members.Rows.
func MemberRows(t *testing.T, open MemberFactory) {
	a := open(t)
	ctx := context.Background()
	invite := func(t *testing.T, ws, email string, role members.Role, minute int) *members.Member {
		t.Helper()
		m, err := members.Invite(ws, email, role, "owner@example.com", at(minute))
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Rows.Add(ctx, m); err != nil {
			t.Fatalf("add %s: %v", email, err)
		}
		return m
	}

	t.Run("rows read back per workspace by invitation time, then e-mail", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		b := invite(t, ws, "b."+person("x"), members.Developer, 1)
		c := invite(t, ws, "a."+person("x"), members.Owner, 1)
		first := invite(t, ws, person("z"), members.Developer, 0)
		invite(t, a.NewWorkspace(t), person("other"), members.Owner, 0)
		got, err := a.Rows.OfWorkspace(ctx, ws)
		want := []members.Member{*first, *c, *b}
		if err != nil {
			t.Fatalf("rows: %+v, %v\nwant %+v", got, err, want)
		}
		mustMatch(t, "rows", want, got)
		one, err := a.Rows.Get(ctx, ws, b.Email)
		if err != nil {
			t.Fatalf("get: %+v, %v", one, err)
		}
		mustMatch(t, "get", *b, one)
		none, err := a.Rows.OfWorkspace(ctx, a.NewWorkspace(t))
		if err != nil || len(none) != 0 {
			t.Fatalf("empty workspace: %+v, %v", none, err)
		}
	})

	t.Run("a person's rows span workspaces; lookups fold case", func(t *testing.T) {
		who := person("multi")
		w1, w2 := a.NewWorkspace(t), a.NewWorkspace(t)
		invite(t, w1, who, members.Owner, 0)
		invite(t, w2, who, members.Developer, 1)
		got, err := a.Rows.OfPerson(ctx, "MULTI"+who[len("multi"):])
		if err != nil || len(got) != 2 {
			t.Fatalf("of person: %+v, %v", got, err)
		}
		roles := map[string]members.Role{got[0].WorkspaceID: got[0].Role, got[1].WorkspaceID: got[1].Role}
		if roles[w1] != members.Owner || roles[w2] != members.Developer {
			t.Fatalf("roles: %+v", roles)
		}
		if _, err := a.Rows.Get(ctx, w1, "MULTI"+who[len("multi"):]); err != nil {
			t.Fatalf("get with other case: %v", err)
		}
	})

	t.Run("a person belongs once: concurrent invitations store one row", func(t *testing.T) {
		ws, who := a.NewWorkspace(t), person("twice")
		stored := 0
		for _, err := range Parallel(6, func(int) error {
			m, _ := members.Invite(ws, who, members.Developer, "owner@example.com", at(0))
			return a.Rows.Add(ctx, m)
		}) {
			if err == nil {
				stored++
				continue
			}
			wantKind(t, err, kernel.KindInvalid, "email")
		}
		if rows, _ := a.Rows.OfWorkspace(ctx, ws); stored != 1 || len(rows) != 1 {
			t.Fatalf("stored %d, rows %d", stored, len(rows))
		}
	})

	t.Run("remove, NotFound for nobody, and joined once", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		m := invite(t, ws, person("leaver"), members.Developer, 0)
		if err := a.Rows.MarkJoined(ctx, ws, m.Email, at(5)); err != nil {
			t.Fatal(err)
		}
		if err := a.Rows.MarkJoined(ctx, ws, m.Email, at(9)); err != nil {
			t.Fatal(err)
		}
		got, _ := a.Rows.Get(ctx, ws, m.Email)
		if got.JoinedAt == nil || !got.JoinedAt.Equal(at(5)) {
			t.Fatalf("joined at %v, want the first sign-in %v", got.JoinedAt, at(5))
		}
		if err := a.Rows.Remove(ctx, ws, m.Email); err != nil {
			t.Fatal(err)
		}
		wantKind(t, a.Rows.Remove(ctx, ws, m.Email), kernel.KindNotFound, "")
		_, err := a.Rows.Get(ctx, ws, m.Email)
		wantKind(t, err, kernel.KindNotFound, "")
	})
}

// SignInState is the contract of members.Links and members.Sessions.
func SignInState(t *testing.T, open MemberFactory) {
	a := open(t)
	ctx := context.Background()
	t.Run("a link reads back and is used once, even by concurrent uses", func(t *testing.T) {
		l, _, err := members.NewLink(rand.Reader, members.ForInvitation, person("link"), a.NewWorkspace(t), at(0))
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Links.Add(ctx, l); err != nil {
			t.Fatal(err)
		}
		got, err := a.Links.Get(ctx, l.TokenHash)
		if err != nil {
			t.Fatalf("get: %+v, %v; want %+v", got, err, l)
		}
		mustMatch(t, "get", l, got)
		var used atomic.Int32
		for _, err := range Parallel(6, func(int) error {
			c := *got
			if err := c.Use(at(1)); err != nil {
				return err
			}
			ok, err := a.Links.SaveUse(ctx, &c)
			if ok {
				used.Add(1)
			}
			return err
		}) {
			if err != nil {
				t.Fatal(err)
			}
		}
		if used.Load() != 1 {
			t.Fatalf("the link was used %d times", used.Load())
		}
		_, err = a.Links.Get(ctx, []byte("nope"))
		if err != members.ErrLinkUnusable {
			t.Fatalf("unknown link: %v", err)
		}
	})

	t.Run("requests are counted per (e-mail, client) and per client within the window", func(t *testing.T) {
		email, other := person("req"), person("req2")
		addr, elsewhere := fmt.Sprintf("198.51.100.%d", personSeq.Add(1)%250), fmt.Sprintf("203.0.113.%d", personSeq.Add(1)%250)
		for i := range 3 {
			if _, _, err := a.Links.RecordRequest(ctx, email, addr, at(i), at(-15)); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := a.Links.RecordRequest(ctx, email, elsewhere, at(3), at(-15)); err != nil {
			t.Fatal(err)
		}
		byPair, byClient, err := a.Links.RecordRequest(ctx, email, addr, at(20), at(1))
		if err != nil || byPair != 2 || byClient != 2 { // minute 2 and this one; minutes 0 and 1 are out of the window
			t.Fatalf("counts %d by pair, %d by client, %v; want 2, 2", byPair, byClient, err)
		}
		byPair, byClient, err = a.Links.RecordRequest(ctx, other, addr, at(21), at(1))
		if err != nil || byPair != 1 || byClient != 3 {
			t.Fatalf("counts %d by pair, %d by client, %v; want 1, 3", byPair, byClient, err)
		}
	})

	t.Run("links are counted per e-mail and purpose since a time", func(t *testing.T) {
		email, ws := person("count"), a.NewWorkspace(t)
		for i, p := range []members.Purpose{members.ForSignIn, members.ForSignIn, members.ForInvitation} {
			l, _, err := members.NewLink(rand.Reader, p, email, ws, at(i))
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Links.Add(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := a.Links.CountIssued(ctx, email, members.ForSignIn, at(0)); err != nil || n != 1 {
			t.Fatalf("sign-in links after minute 0: %d, %v; want 1", n, err)
		}
		if n, err := a.Links.CountIssued(ctx, email, members.ForInvitation, at(-1)); err != nil || n != 1 {
			t.Fatalf("invitation links: %d, %v; want 1", n, err)
		}
	})

	t.Run("the outbox hands a request to one claimer until it is done or its lease ends", func(t *testing.T) {
		r := members.LinkRequest{ID: fmt.Sprintf("sir_%d", personSeq.Add(1)), Email: person("queued"), Address: "192.0.2.1", RequestedAt: at(0)}
		if err := a.Outbox.Enqueue(ctx, r); err != nil {
			t.Fatal(err)
		}
		var claimed atomic.Int32
		for _, err := range Parallel(4, func(int) error {
			got, err := a.Outbox.ClaimDue(ctx, at(1), at(6), 100)
			for _, g := range got {
				if g.ID == r.ID {
					if d := Diff(r, g); d != "" {
						return fmt.Errorf("claimed request (-want +got):\n%s", d)
					}
					claimed.Add(1)
				}
			}
			return err
		}) {
			if err != nil {
				t.Fatal(err)
			}
		}
		if claimed.Load() != 1 {
			t.Fatalf("claimed %d times, want once", claimed.Load())
		}
		again, err := a.Outbox.ClaimDue(ctx, at(7), at(12), 100)
		if err != nil || !containsRequest(again, r.ID) {
			t.Fatalf("after the lease: %v, %v; want it again", again, err)
		}
		if err := a.Outbox.Done(ctx, r.ID, at(8)); err != nil {
			t.Fatal(err)
		}
		if done, err := a.Outbox.ClaimDue(ctx, at(20), at(25), 100); err != nil || containsRequest(done, r.ID) {
			t.Fatalf("a done request was claimed: %v, %v", done, err)
		}
	})

	t.Run("sessions: read back, touched forward only, ended once, one at a time", func(t *testing.T) {
		who := person("sess")
		var hashes [][]byte
		for i := range 2 {
			s, _, err := members.NewSession(rand.Reader, who, at(i))
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Sessions.Add(ctx, s); err != nil {
				t.Fatal(err)
			}
			hashes = append(hashes, s.TokenHash)
			got, err := a.Sessions.Get(ctx, s.TokenHash)
			if err != nil {
				t.Fatalf("get: %+v, %v; want %+v", got, err, s)
			}
			mustMatch(t, "get", s, got)
		}
		s, _ := a.Sessions.Get(ctx, hashes[0])
		s.LastSeenAt = at(10)
		_ = a.Sessions.Touch(ctx, s)
		s.LastSeenAt = at(5)
		_ = a.Sessions.Touch(ctx, s)
		if got, _ := a.Sessions.Get(ctx, hashes[0]); !got.LastSeenAt.Equal(at(10)) {
			t.Fatalf("last seen %v, want %v", got.LastSeenAt, at(10))
		}
		_ = a.Sessions.End(ctx, hashes[0], at(11))
		_ = a.Sessions.End(ctx, hashes[0], at(12))
		if got, _ := a.Sessions.Get(ctx, hashes[0]); got.EndedAt == nil || !got.EndedAt.Equal(at(11)) {
			t.Fatalf("ended %v, want %v", got.EndedAt, at(11))
		}
		if got, _ := a.Sessions.Get(ctx, hashes[1]); got.EndedAt != nil {
			t.Fatalf("the person's other session ended at %v", got.EndedAt)
		}
		_, err := a.Sessions.Get(ctx, []byte("nope"))
		wantKind(t, err, kernel.KindUnauthenticated, "")
	})
}

func containsRequest(rs []members.LinkRequest, id string) bool {
	for _, r := range rs {
		if r.ID == id {
			return true
		}
	}
	return false
}
