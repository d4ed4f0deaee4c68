package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// StudentAdapters is one implementation of the students module's ports, over one store
// (what the repository writes, the read ports read).
type StudentAdapters struct {
	Repo       students.Repository
	Reads      query.ReadModel
	Published  query.Published
	References // NewWorkspace only
}

// StudentFactory opens a store once per suite; each case works in its own workspace.
type StudentFactory func(t *testing.T) StudentAdapters

// newStudent is a student built by the domain, as a command would; ids are unique per
// workspace and name (the workspace id is in them).
func newStudent(t *testing.T, ws, name string, minute int) *students.Student {
	t.Helper()
	s, err := students.New(fmt.Sprintf("stu_%s_%s", ws, name), ws, students.Profile{
		Email: name + "@Example.com", FirstName: "Ada", LastName: strings.ToUpper(name), ExternalID: "crm-" + name,
		Metadata: map[string]string{"plan": "pro"},
	}, at(minute))
	if err != nil {
		t.Fatalf("new student: %v", err)
	}
	return s
}

func mustAddStudent(t *testing.T, a StudentAdapters, s *students.Student) {
	t.Helper()
	added, err := a.Repo.Add(context.Background(), s)
	if err != nil || !added {
		t.Fatalf("add %s: added %v, %v", s.ID, added, err)
	}
}

func mustUpdateStudent(t *testing.T, a StudentAdapters, s *students.Student) {
	t.Helper()
	if err := a.Repo.Update(context.Background(), s); err != nil {
		t.Fatalf("update %s: %v", s.ID, err)
	}
}

// mustDeleteStudent deletes s through the aggregate, as DeleteStudent does.
func mustDeleteStudent(t *testing.T, a StudentAdapters, s *students.Student, minute int) {
	t.Helper()
	if err := s.Delete(at(minute)); err != nil {
		t.Fatalf("delete %s: %v", s.ID, err)
	}
	mustUpdateStudent(t, a, s)
}

// StudentRepository is the contract of students.Repository.
func StudentRepository(t *testing.T, open StudentFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a new student reads back as written", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := newStudent(t, ws, "ada", 0)
		mustAddStudent(t, a, s)
		got, err := a.Repo.Get(ctx, ws, s.ID)
		if err != nil {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, s)
		}
		mustMatch(t, "Get", s, got)
	})

	t.Run("update saves the profile; a deleted student is gone and frees its address", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		s := newStudent(t, ws, "grace", 0)
		mustAddStudent(t, a, s)
		email, first, meta := "grace@lovelace.example", "Grace", map[string]string{"plan": "team", "seat": "2"}
		if changed, err := s.Apply(students.Patch{Email: &email, FirstName: &first, Metadata: &meta}, at(3)); err != nil || !changed {
			t.Fatalf("apply: %v, %v", changed, err)
		}
		mustUpdateStudent(t, a, s)
		if got, err := a.Repo.Get(ctx, ws, s.ID); err != nil || !reflect.DeepEqual(got, s) {
			t.Fatalf("after update: %+v, %v; want %+v", got, err, s)
		}
		mustDeleteStudent(t, a, s, 4)
		_, err := a.Repo.Get(ctx, ws, s.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		again := newStudent(t, ws, "grace2", 5)
		again.Email = "GRACE@lovelace.example"
		mustAddStudent(t, a, again) // the deleted student's address is free
	})

	t.Run("a live student's address is unique per workspace, case-insensitively", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		first := newStudent(t, ws, "alan", 0)
		mustAddStudent(t, a, first)
		dup := newStudent(t, ws, "alan2", 1)
		dup.Email = "ALAN@example.COM"
		if added, err := a.Repo.Add(ctx, dup); err != nil || added {
			t.Fatalf("second Add of the address = %v, %v; want false, nil", added, err)
		}
		_, err := a.Repo.Get(ctx, ws, dup.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		elsewhere := newStudent(t, other, "alan", 1) // another workspace may use it
		mustAddStudent(t, a, elsewhere)
		second := newStudent(t, ws, "turing", 2)
		mustAddStudent(t, a, second)
		taken := "Alan@Example.com"
		if _, err := second.Apply(students.Patch{Email: &taken}, at(3)); err != nil {
			t.Fatal(err)
		}
		wantKind(t, a.Repo.Update(ctx, second), kernel.KindInvalid, "email")
	})

	t.Run("another workspace's student is not found", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s := newStudent(t, ws, "edsger", 0)
		mustAddStudent(t, a, s)
		_, err := a.Repo.Get(ctx, other, s.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.Get(ctx, ws, "stu_missing")
		wantKind(t, err, kernel.KindNotFound, "")
	})

	t.Run("concurrent creates of one address: exactly one is added", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		const n = 8
		candidates := make([]*students.Student, n)
		for i := range candidates {
			candidates[i] = newStudent(t, ws, fmt.Sprintf("racer%d", i), i)
			candidates[i].Email = "racer@example.com"
		}
		won := oneWinner(t, n, func(i int) (bool, error) { return a.Repo.Add(ctx, candidates[i]) })
		got, err := a.Reads.GetByEmail(ctx, ws, "racer@example.com")
		if err != nil || got.ID != candidates[won].ID {
			t.Fatalf("the address holds %v, %v; want the winner %s", got, err, candidates[won].ID)
		}
	})

	t.Run("touch moves updatedAt forward, never back, in the workspace only", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s := newStudent(t, ws, "barbara", 5)
		mustAddStudent(t, a, s)
		for _, tc := range []struct {
			ws      string
			minute  int
			want    int
			comment string
		}{{ws, 9, 9, "forward"}, {ws, 7, 9, "never back"}, {other, 20, 9, "another workspace"}} {
			if err := a.Repo.Touch(ctx, tc.ws, s.ID, at(tc.minute)); err != nil {
				t.Fatalf("touch %s: %v", tc.comment, err)
			}
			got, err := a.Repo.Get(ctx, ws, s.ID)
			if err != nil || !got.UpdatedAt.Equal(at(tc.want)) || !got.CreatedAt.Equal(at(5)) {
				t.Fatalf("after touch %s: %+v, %v; want updatedAt %v", tc.comment, got, err, at(tc.want))
			}
		}
		if err := a.Repo.Touch(ctx, ws, "stu_missing", at(30)); err != nil {
			t.Fatalf("touch of a missing student: %v", err)
		}
	})
}

// StudentReads is the contract of query.ReadModel and query.Published.
func StudentReads(t *testing.T, open StudentFactory) {
	a := open(t)
	ctx := context.Background()
	ids := func(t *testing.T, ws string, f query.Filter, limit int) []string {
		return pageThrough(t, limit, func(s *students.Student) string { return s.ID },
			func(p platform.PageRequest) (platform.Page[*students.Student], error) {
				return a.Reads.List(ctx, ws, f, p)
			})
	}

	t.Run("the list holds live students, newest first, in keyset pages, with filters", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		all := make([]*students.Student, 6)
		for i := range all {
			minute := i
			if i == 5 {
				minute = 4 // a tie on created_at: the larger id comes first
			}
			all[i] = newStudent(t, ws, fmt.Sprintf("list%d", i), minute)
			mustAddStudent(t, a, all[i])
		}
		mustAddStudent(t, a, newStudent(t, other, "list0", 9))
		gone := all[2]
		mustDeleteStudent(t, a, gone, 20)
		name := "Renamed"
		if _, err := all[1].Apply(students.Patch{FirstName: &name}, at(30)); err != nil {
			t.Fatal(err)
		}
		mustUpdateStudent(t, a, all[1])

		want := []string{all[5].ID, all[4].ID, all[3].ID, all[1].ID, all[0].ID} // list5 > list4 on the tie
		for _, limit := range []int{2, 5, 10} {
			if got := ids(t, ws, query.Filter{}, limit); !reflect.DeepEqual(got, want) {
				t.Fatalf("limit %d: listed %v; want %v", limit, got, want)
			}
		}
		if got := ids(t, ws, query.Filter{Email: "LIST3@example.com"}, 2); !reflect.DeepEqual(got, []string{all[3].ID}) {
			t.Fatalf("by email: %v", got)
		}
		if got := ids(t, ws, query.Filter{Email: gone.Email}, 2); len(got) != 0 {
			t.Fatalf("a deleted student's address lists %v", got)
		}
		since := at(30)
		if got := ids(t, ws, query.Filter{UpdatedSince: &since}, 2); !reflect.DeepEqual(got, []string{all[1].ID}) {
			t.Fatalf("updated since: %v", got)
		}
		ext := "crm-shared" // not unique: two students of the CRM may share one
		for _, s := range []*students.Student{all[0], all[4]} {
			if _, err := s.Apply(students.Patch{ExternalID: &ext}, at(31)); err != nil {
				t.Fatal(err)
			}
			mustUpdateStudent(t, a, s)
		}
		if got := ids(t, ws, query.Filter{ExternalID: ext}, 1); !reflect.DeepEqual(got, []string{all[4].ID, all[0].ID}) {
			t.Fatalf("by externalId: %v", got)
		}
		if got := ids(t, ws, query.Filter{ExternalID: ext, Email: all[0].Email}, 2); !reflect.DeepEqual(got, []string{all[0].ID}) {
			t.Fatalf("by externalId and email: %v", got)
		}
		if got := ids(t, other, query.Filter{ExternalID: ext}, 2); len(got) != 0 {
			t.Fatalf("another workspace lists %v by externalId", got)
		}
		if got := ids(t, a.NewWorkspace(t), query.Filter{}, 3); len(got) != 0 {
			t.Fatalf("empty workspace lists %v", got)
		}
		p, err := a.Reads.List(ctx, ws, query.Filter{}, platform.PageRequest{Limit: 2})
		if err != nil {
			t.Fatalf("listed students read as written: %+v, %v", p.Items, err)
		}
		mustMatch(t, "listed students read as written", all[5], p.Items[0])
	})

	t.Run("get, get by email and exists: live students of the workspace only", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		s, gone := newStudent(t, ws, "hopper", 0), newStudent(t, ws, "gone", 1)
		mustAddStudent(t, a, s)
		mustAddStudent(t, a, gone)
		mustDeleteStudent(t, a, gone, 2)
		if got, err := a.Reads.Get(ctx, ws, s.ID); err != nil || !reflect.DeepEqual(got, s) {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, s)
		}
		if got, err := a.Reads.GetByEmail(ctx, ws, " HOPPER@example.com "); err != nil || got.ID != s.ID {
			t.Fatalf("GetByEmail = %+v, %v", got, err)
		}
		for _, err := range []error{
			second(a.Reads.Get(ctx, ws, gone.ID)), second(a.Reads.GetByEmail(ctx, ws, gone.Email)),
			second(a.Reads.Get(ctx, other, s.ID)), second(a.Reads.GetByEmail(ctx, other, s.Email)),
		} {
			wantKind(t, err, kernel.KindNotFound, "")
		}
		for _, tc := range []struct {
			ws, id string
			want   bool
		}{{ws, s.ID, true}, {ws, gone.ID, false}, {other, s.ID, false}, {ws, "stu_missing", false}} {
			if got, err := a.Published.Exists(ctx, tc.ws, tc.id); err != nil || got != tc.want {
				t.Fatalf("Exists(%s, %s) = %v, %v; want %v", tc.ws, tc.id, got, err, tc.want)
			}
		}
	})

	t.Run("first created is the earliest student, deleted ones included, any workspace", func(t *testing.T) {
		wantEarliest(t, a.Published.FirstCreated, func() time.Time {
			old := newStudent(t, a.NewWorkspace(t), "old", -600)
			mustAddStudent(t, a, old)
			mustDeleteStudent(t, a, old, 1)
			return at(-600)
		})
	})
}

// second drops the value of a (value, error) pair.
func second[T any](_ T, err error) error { return err }
