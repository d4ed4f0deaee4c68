package courses

import (
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func newDraft(t *testing.T) *Course {
	t.Helper()
	c, err := New("crs_1", "org_1", "Watercolor", "watercolor", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLifeCycle(t *testing.T) {
	c := newDraft(t)
	if c.Status != Draft || c.Visible() {
		t.Fatal("a new course is an invisible draft")
	}
	if err := c.Archive(t0); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("archiving a draft: %v, want invalid", err)
	}
	err := c.Publish(t0.Add(time.Minute))
	if err != nil || c.Status != Published || !c.PublishedAt.Equal(t0.Add(time.Minute)) || !c.Visible() {
		t.Fatalf("publish: %v %+v", err, c)
	}
	if err := c.Publish(t0); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("publishing twice: %v, want invalid", err)
	}
	err = c.Archive(t0.Add(2 * time.Minute))
	if err != nil || c.Status != Archived || !c.Visible() {
		t.Fatalf("archive: %v %+v", err, c)
	}
	if _, err := c.AddModule("mod_1", "Late", t0); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("an archived course cannot change: %v", err)
	}
	if err := c.Publish(t0.Add(3 * time.Minute)); err != nil || c.ArchivedAt != nil {
		t.Fatalf("republishing an archived course: %v", err)
	}
}

func TestCurriculumPositionsAndLessonRules(t *testing.T) {
	c := newDraft(t)
	m1, _ := c.AddModule("mod_1", "Intro", t0)
	m2, _ := c.AddModule("mod_2", "Next", t0)
	if m1.Position != 1 || m2.Position != 2 {
		t.Fatalf("module positions %d, %d", m1.Position, m2.Position)
	}
	l1, err := c.AddLesson("mod_2", LessonDraft{ID: "les_1", Title: "A", Type: "video", DurationSeconds: 60}, t0)
	if err != nil || l1.Position != 1 {
		t.Fatalf("first lesson: %v %+v", err, l1)
	}
	l2, _ := c.AddLesson("mod_2", LessonDraft{ID: "les_2", Title: "B", Type: "quiz"}, t0)
	if l2.Position != 2 || c.LessonCount() != 2 {
		t.Fatalf("second lesson position %d, count %d", l2.Position, c.LessonCount())
	}
	for name, c2 := range map[string]struct {
		module string
		draft  LessonDraft
		kind   kernel.Kind
		field  string
	}{
		"unknown module": {"mod_x", LessonDraft{Title: "x", Type: "video"}, kernel.KindNotFound, ""},
		"bad type":       {"mod_1", LessonDraft{Title: "x", Type: "podcast"}, kernel.KindInvalid, "type"},
		"no title":       {"mod_1", LessonDraft{Title: "  ", Type: "video"}, kernel.KindInvalid, "title"},
		"negative":       {"mod_1", LessonDraft{Title: "x", Type: "video", DurationSeconds: -1}, kernel.KindInvalid, "durationSeconds"},
		"too long":       {"mod_1", LessonDraft{Title: "x", Type: "video", DurationSeconds: 86401}, kernel.KindInvalid, "durationSeconds"},
	} {
		_, err := c.AddLesson(c2.module, c2.draft, t0)
		ke, _ := err.(*kernel.Error)
		if ke == nil || ke.Kind != c2.kind || ke.Field != c2.field {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSlugs(t *testing.T) {
	for title, want := range map[string]string{
		"Watercolor Foundations": "watercolor-foundations",
		"  C++ & Go: 101!  ":     "c-go-101",
		"Café crème":             "caf-cr-me",
		"!!!":                    "course",
	} {
		if got := SlugFromTitle(title); got != want || ValidateSlug(got) != nil {
			t.Errorf("SlugFromTitle(%q) = %q, want %q", title, got, want)
		}
	}
	for _, bad := range []string{"", "-a", "a-", "a--b", "A", "a b", "é"} {
		if ValidateSlug(bad) == nil {
			t.Errorf("ValidateSlug(%q) accepted", bad)
		}
	}
}
