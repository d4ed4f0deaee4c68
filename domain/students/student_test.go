package students

import (
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func fieldOf(err error) string {
	if e, ok := err.(*kernel.Error); ok {
		return e.Field
	}
	return ""
}

func TestNewValidatesEveryField(t *testing.T) {
	many := map[string]string{}
	for i := 0; i <= MaxMetadataKeys; i++ {
		many[strings.Repeat("k", i%5+1)+string(rune('a'+i%26))+string(rune('a'+i/26))] = "v"
	}
	for _, c := range []struct {
		p     Profile
		field string
	}{
		{Profile{Email: "nope"}, "email"},
		{Profile{Email: " "}, "email"},
		{Profile{Email: "a@example.com", FirstName: strings.Repeat("x", 101)}, "firstName"},
		{Profile{Email: "a@example.com", LastName: strings.Repeat("x", 101)}, "lastName"},
		{Profile{Email: "a@example.com", ExternalID: strings.Repeat("x", 256)}, "externalId"},
		{Profile{Email: "a@example.com", Metadata: many}, "metadata"},
		{Profile{Email: "a@example.com", Metadata: map[string]string{strings.Repeat("k", 41): ""}}, "metadata"},
		{Profile{Email: "a@example.com", Metadata: map[string]string{"k": strings.Repeat("v", 501)}}, "metadata"},
	} {
		if _, err := New("stu_1", "org_1", c.p, t0); fieldOf(err) != c.field {
			t.Errorf("New(%+v): %v, want an error naming %s", c.p, err, c.field)
		}
	}
	s, err := New("stu_1", "org_1", Profile{Email: " Ada@Example.com ", FirstName: " Ada "}, t0)
	if err != nil || s.Email != "Ada@Example.com" || s.FirstName != "Ada" || s.Metadata == nil {
		t.Fatalf("New: %+v, %v", s, err)
	}
	if EmailKey(s.Email) != "ada@example.com" {
		t.Fatalf("EmailKey %q", EmailKey(s.Email))
	}
}

func TestApplyReportsChanges(t *testing.T) {
	s, _ := New("stu_1", "org_1", Profile{Email: "a@example.com", FirstName: "A", Metadata: map[string]string{"x": "1"}}, t0)
	same := "A"
	if changed, err := s.Apply(Patch{FirstName: &same, Metadata: &map[string]string{"x": "1"}}, t0.Add(time.Hour)); err != nil || changed || !s.UpdatedAt.Equal(t0) {
		t.Fatalf("no-op patch: changed=%v err=%v %+v", changed, err, s)
	}
	bad := "bad"
	if _, err := s.Apply(Patch{FirstName: &same, Email: &bad}, t0); fieldOf(err) != "email" || s.Email != "a@example.com" {
		t.Fatalf("invalid patch: %v, %+v", err, s)
	}
	other := "B"
	if changed, err := s.Apply(Patch{LastName: &other}, t0.Add(time.Hour)); err != nil || !changed || s.LastName != "B" || s.FirstName != "A" || !s.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("patch: changed=%v err=%v %+v", changed, err, s)
	}
	if err := s.Delete(t0); err != nil || s.DeletedAt == nil || !kernel.IsNotFound(s.Delete(t0)) {
		t.Fatalf("delete: %v %+v", err, s)
	}
}

func TestApplyMergesMetadataAndSetsTheExternalID(t *testing.T) {
	s, _ := New("stu_1", "org_1", Profile{Email: "a@example.com", Metadata: map[string]string{"plan": "pro", "source": "ads"}}, t0)
	gold, ext := "gold", " crm-7 "
	changed, err := s.Apply(Patch{ExternalID: &ext, MetadataChanges: map[string]*string{"plan": &gold, "source": nil, "absent": nil}}, t0.Add(time.Hour))
	if err != nil || !changed || s.ExternalID != "crm-7" || len(s.Metadata) != 1 || s.Metadata["plan"] != "gold" {
		t.Fatalf("changed %v, err %v, student %+v", changed, err, s)
	}
	// Removing an absent key and setting a value to itself change nothing.
	if changed, err := s.Apply(Patch{MetadataChanges: map[string]*string{"plan": &gold, "gone": nil}}, t0.Add(2*time.Hour)); err != nil || changed || !s.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("no-op merge: changed %v, err %v", changed, err)
	}
	// The merged map is held to the limits.
	many := map[string]*string{}
	for i := 0; i < MaxMetadataKeys; i++ {
		v := "v"
		many[string(rune('a'+i%26))+string(rune('a'+i/26))] = &v
	}
	if _, err := s.Apply(Patch{MetadataChanges: many}, t0); fieldOf(err) != "metadata" || len(s.Metadata) != 1 {
		t.Fatalf("51 keys after the merge: %v, metadata %v", err, s.Metadata)
	}
	long := strings.Repeat("x", MaxExternalID+1)
	if _, err := s.Apply(Patch{ExternalID: &long}, t0); fieldOf(err) != "externalId" {
		t.Fatalf("long externalId: %v", err)
	}
}
