package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// CourseAdapters is one implementation of the courses module's ports, over one store
// (what the repository writes, the read ports read).
type CourseAdapters struct {
	Repo       courses.Repository
	Reads      query.ReadModel
	Catalog    query.Catalog
	References // NewWorkspace only
}

// CourseFactory opens a store once per suite; each case works in its own workspace.
type CourseFactory func(t *testing.T) CourseAdapters

// newCourse is a draft built by the domain, as a command would.
func newCourse(t *testing.T, ws, id, slug string, minute int) *courses.Course {
	t.Helper()
	c, err := courses.New(id, ws, "Course "+id, slug, "About "+id, at(minute))
	if err != nil {
		t.Fatalf("new course: %v", err)
	}
	return c
}

// withCurriculum adds modules and lessons through the aggregate.
func withCurriculum(t *testing.T, c *courses.Course, modules, lessonsPer int, minute int) {
	t.Helper()
	for m := range modules {
		mod, err := c.AddModule(fmt.Sprintf("mod_%s_%d", c.ID, len(c.Modules)+1), fmt.Sprintf("Module %d", m+1), at(minute))
		if err != nil {
			t.Fatalf("add module: %v", err)
		}
		for l := range lessonsPer {
			_, err := c.AddLesson(mod.ID, courses.LessonDraft{
				ID: fmt.Sprintf("les_%s_%d", mod.ID, l+1), Title: fmt.Sprintf("Lesson %d", l+1), Type: "video", DurationSeconds: 60 * (l + 1),
			}, at(minute))
			if err != nil {
				t.Fatalf("add lesson: %v", err)
			}
		}
	}
}

func mustAdd(t *testing.T, a CourseAdapters, c *courses.Course) {
	t.Helper()
	if err := a.Repo.Add(context.Background(), c); err != nil {
		t.Fatalf("add %s: %v", c.ID, err)
	}
}

func mustUpdate(t *testing.T, a CourseAdapters, c *courses.Course) {
	t.Helper()
	if err := a.Repo.Update(context.Background(), c); err != nil {
		t.Fatalf("update %s: %v", c.ID, err)
	}
}

func wantSame(t *testing.T, got, want *courses.Course) {
	t.Helper()
	mustMatch(t, "stored course differs", want, got)
}

// CourseRepository is the contract of courses.Repository.
func CourseRepository(t *testing.T, open CourseFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a new course reads back as written", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		c := newCourse(t, ws, "crs_new", "new-course", 0)
		mustAdd(t, a, c)
		got, err := a.Repo.Get(ctx, ws, c.ID)
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		wantSame(t, got, c)
	})

	t.Run("update saves state and appends the curriculum once", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		c := newCourse(t, ws, "crs_upd", "upd", 0)
		mustAdd(t, a, c)
		withCurriculum(t, c, 2, 3, 1)
		if err := c.Publish(at(2)); err != nil {
			t.Fatal(err)
		}
		mustUpdate(t, a, c)
		mustUpdate(t, a, c) // saving again adds nothing
		got, err := a.Repo.Get(ctx, ws, c.ID)
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		wantSame(t, got, c)
		withCurriculum(t, got, 1, 1, 3) // a loaded aggregate grows from where it was
		mustUpdate(t, a, got)
		again, err := a.Repo.Get(ctx, ws, c.ID)
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		if len(again.Modules) != 3 || again.LessonCount() != 7 || again.Modules[2].Position != 3 {
			t.Fatalf("curriculum after growth: %d modules, %d lessons", len(again.Modules), again.LessonCount())
		}
	})

	t.Run("the slug is unique per workspace", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		mustAdd(t, a, newCourse(t, ws, "crs_slug1", "same", 0))
		err := a.Repo.Add(ctx, newCourse(t, ws, "crs_slug2", "same", 1))
		wantKind(t, err, kernel.KindInvalid, "slug")
		mustAdd(t, a, newCourse(t, other, "crs_slug3", "same", 2))
		for _, tc := range []struct {
			ws, slug string
			want     bool
		}{{ws, "same", true}, {ws, "free", false}, {other, "same", true}, {a.NewWorkspace(t), "same", false}} {
			taken, err := a.Repo.SlugTaken(ctx, tc.ws, tc.slug)
			if err != nil || taken != tc.want {
				t.Fatalf("SlugTaken(%s, %s) = %v, %v; want %v", tc.ws, tc.slug, taken, err, tc.want)
			}
		}
	})

	t.Run("another workspace's course and module are not found", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		c := newCourse(t, ws, "crs_scope", "scope", 0)
		mustAdd(t, a, c)
		withCurriculum(t, c, 1, 1, 1)
		mustUpdate(t, a, c)
		_, err := a.Repo.Get(ctx, other, c.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.Get(ctx, ws, "crs_missing")
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.GetByModule(ctx, other, c.Modules[0].ID)
		wantKind(t, err, kernel.KindNotFound, "")
		got, err := a.Repo.GetByModule(ctx, ws, c.Modules[0].ID)
		if err != nil || got.ID != c.ID {
			t.Fatalf("GetByModule = %v, %v; want %s", got, err, c.ID)
		}
	})

	t.Run("concurrent adds of one slug: exactly one wins", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		const n = 8
		errs := Parallel(n, func(i int) error {
			return a.Repo.Add(ctx, newCourse(t, ws, fmt.Sprintf("crs_race%d", i), "race", i))
		})
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
				continue
			}
			wantKind(t, err, kernel.KindInvalid, "slug")
		}
		if won != 1 {
			t.Fatalf("%d of %d concurrent adds of one slug succeeded; want 1", won, n)
		}
	})

	t.Run("concurrent adds of distinct courses all land", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		const n = 8
		for i, err := range Parallel(n, func(i int) error {
			return a.Repo.Add(ctx, newCourse(t, ws, fmt.Sprintf("crs_many%d", i), fmt.Sprintf("many-%d", i), i))
		}) {
			if err != nil {
				t.Fatalf("add %d: %v", i, err)
			}
		}
		for i := range n {
			if _, err := a.Repo.Get(ctx, ws, fmt.Sprintf("crs_many%d", i)); err != nil {
				t.Fatalf("get %d: %v", i, err)
			}
		}
	})
}

// CourseReadModel is the contract of query.ReadModel.
func CourseReadModel(t *testing.T, open CourseFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("the list holds published courses only, newest first, in keyset pages", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		var want []string
		for i, status := range []courses.Status{courses.Published, courses.Draft, courses.Published, courses.Archived, courses.Published, courses.Published} {
			minute := i
			if i == 5 {
				minute = 4 // a tie on created_at: the larger id comes first
			}
			c := newCourse(t, ws, fmt.Sprintf("crs_list%d", i), fmt.Sprintf("list-%d", i), minute)
			mustAdd(t, a, c)
			if status != courses.Draft {
				if err := c.Publish(at(10)); err != nil {
					t.Fatal(err)
				}
			}
			if status == courses.Archived {
				if err := c.Archive(at(11)); err != nil {
					t.Fatal(err)
				}
			}
			mustUpdate(t, a, c)
			if status == courses.Published {
				want = append([]string{c.ID}, want...)
			}
		}
		mustAdd(t, a, newCourse(t, other, "crs_elsewhere", "elsewhere", 99))
		want[0], want[1] = "crs_list5", "crs_list4"
		var got []string
		page := platform.PageRequest{Limit: 3}
		for pages := 0; ; pages++ {
			p, err := a.Reads.ListPublished(ctx, ws, page)
			if err != nil {
				t.Fatalf("list: %v", err)
			}
			for _, c := range p.Items {
				got = append(got, c.ID)
				if c.Status != string(courses.Published) || c.PublishedAt == nil || !c.PublishedAt.Equal(at(10)) {
					t.Fatalf("listed %+v", c)
				}
			}
			if !p.HasMore {
				if p.Next != nil || pages != 1 {
					t.Fatalf("last page: next %v after %d pages", p.Next, pages+1)
				}
				break
			}
			page.After = p.Next
		}
		mustMatch(t, "listed", want, got)
		empty, err := a.Reads.ListPublished(ctx, a.NewWorkspace(t), platform.PageRequest{Limit: 3})
		if err != nil || len(empty.Items) != 0 || empty.HasMore {
			t.Fatalf("empty workspace: %+v, %v", empty, err)
		}
	})

	t.Run("a slug finds the published course in its workspace only", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		published := newCourse(t, ws, "crs_slug_pub", "by-slug", 0)
		draft := newCourse(t, ws, "crs_slug_draft", "draft-slug", 1)
		archived := newCourse(t, ws, "crs_slug_arch", "archived-slug", 2)
		for _, c := range []*courses.Course{published, draft, archived} {
			mustAdd(t, a, c)
		}
		for _, c := range []*courses.Course{published, archived} {
			if err := c.Publish(at(3)); err != nil {
				t.Fatal(err)
			}
		}
		if err := archived.Archive(at(4)); err != nil {
			t.Fatal(err)
		}
		mustUpdate(t, a, published)
		mustUpdate(t, a, archived)
		got, err := a.Reads.PublishedBySlug(ctx, ws, "by-slug")
		if err != nil || got.ID != published.ID || got.Slug != "by-slug" || got.Status != "published" {
			t.Fatalf("by slug: %+v, %v", got, err)
		}
		for _, c := range []struct{ ws, slug string }{{ws, "draft-slug"}, {ws, "archived-slug"}, {ws, "no-such"}, {other, "by-slug"}} {
			_, err := a.Reads.PublishedBySlug(ctx, c.ws, c.slug)
			wantKind(t, err, kernel.KindNotFound, "")
		}
	})

	t.Run("a course reads with its curriculum, any status, in its workspace only", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		c := newCourse(t, ws, "crs_detail", "detail", 0)
		mustAdd(t, a, c)
		got, err := a.Reads.Get(ctx, ws, c.ID)
		if err != nil {
			t.Fatalf("get draft: %v", err)
		}
		if !reflect.DeepEqual(got, query.FromDomain(c)) || got.Modules == nil {
			t.Fatalf("draft reads as %+v; want %+v", got, query.FromDomain(c))
		}
		withCurriculum(t, c, 2, 2, 1)
		if _, err := c.AddModule("mod_crs_detail_empty", "Empty", at(2)); err != nil {
			t.Fatal(err)
		}
		mustUpdate(t, a, c)
		got, err = a.Reads.Get(ctx, ws, c.ID)
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		if want := query.FromDomain(c); !reflect.DeepEqual(got, want) {
			t.Fatalf("course reads as\n %+v\nwant %+v", got, want)
		}
		if got.Modules[2].Lessons == nil {
			t.Fatal("a module without lessons must hold an empty list, not null")
		}
		_, err = a.Reads.Get(ctx, a.NewWorkspace(t), c.ID)
		wantKind(t, err, kernel.KindNotFound, "")
	})

	t.Run("the catalogue version moves with every write, per workspace, under concurrency", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		version := func(ws string) int64 {
			t.Helper()
			v, err := a.Reads.CatalogVersion(ctx, ws)
			if err != nil {
				t.Fatalf("version: %v", err)
			}
			return v
		}
		if v := version(ws); v != 0 {
			t.Fatalf("version before any course: %d", v)
		}
		c := newCourse(t, ws, "crs_ver", "ver", 0)
		mustAdd(t, a, c)
		v1 := version(ws)
		if err := c.Publish(at(1)); err != nil {
			t.Fatal(err)
		}
		mustUpdate(t, a, c)
		if v2 := version(ws); v2 <= v1 || version(other) != 0 {
			t.Fatalf("versions after update: %d -> %d, other workspace %d", v1, v2, version(other))
		}
		before := version(ws)
		const n = 8
		for i, err := range Parallel(n, func(i int) error {
			return a.Repo.Add(ctx, newCourse(t, ws, fmt.Sprintf("crs_ver%d", i), fmt.Sprintf("ver-%d", i), i))
		}) {
			if err != nil {
				t.Fatalf("add %d: %v", i, err)
			}
		}
		if got := version(ws); got != before+n {
			t.Fatalf("version after %d concurrent adds: %d; want %d", n, got, before+n)
		}
	})
}

// CourseCatalog is the contract of query.Catalog, the module's published read port.
func CourseCatalog(t *testing.T, open CourseFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("facts of the workspace's courses, any status; others absent", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		draft := newCourse(t, ws, "crs_fact_draft", "fact-draft", 0)
		mustAdd(t, a, draft)
		pub := newCourse(t, ws, "crs_fact_pub", "fact-pub", 1)
		mustAdd(t, a, pub)
		withCurriculum(t, pub, 2, 2, 2)
		if err := pub.Publish(at(3)); err != nil {
			t.Fatal(err)
		}
		mustUpdate(t, a, pub)
		mustAdd(t, a, newCourse(t, other, "crs_fact_other", "fact-other", 4))
		got, err := a.Catalog.Facts(ctx, ws, []string{"crs_fact_draft", "crs_fact_pub", "crs_fact_other", "crs_unknown", "crs_fact_pub"})
		if err != nil {
			t.Fatalf("facts: %v", err)
		}
		want := map[string]query.CourseFacts{
			draft.ID: {ID: draft.ID, Title: draft.Title, Status: "draft", LessonCount: 0},
			pub.ID:   {ID: pub.ID, Title: pub.Title, Status: "published", LessonCount: 4},
		}
		if !reflect.DeepEqual(got, want) || got[draft.ID].Published() || !got[pub.ID].Published() {
			t.Fatalf("facts %+v; want %+v", got, want)
		}
		none, err := a.Catalog.Facts(ctx, ws, nil)
		if err != nil || len(none) != 0 {
			t.Fatalf("facts of no ids: %v, %v", none, err)
		}
	})

	t.Run("a lesson resolves to its course in its workspace only", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		c := newCourse(t, ws, "crs_les", "les", 0)
		mustAdd(t, a, c)
		withCurriculum(t, c, 1, 2, 1)
		mustUpdate(t, a, c)
		lesson := c.Modules[0].Lessons[1].ID
		got, err := a.Catalog.LessonCourse(ctx, ws, lesson)
		if err != nil || got != c.ID {
			t.Fatalf("LessonCourse = %q, %v; want %s", got, err, c.ID)
		}
		_, err = a.Catalog.LessonCourse(ctx, a.NewWorkspace(t), lesson)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Catalog.LessonCourse(ctx, ws, "les_missing")
		wantKind(t, err, kernel.KindNotFound, "")
	})
}
