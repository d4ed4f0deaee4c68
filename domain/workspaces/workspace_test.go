package workspaces

import (
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

func TestNewWorkspace(t *testing.T) {
	w, err := New("org_1", "  Demo Academy ", "owner@example.com", time.Now())
	if err != nil || w.Name != "Demo Academy" {
		t.Fatalf("%v %+v", err, w)
	}
	for _, c := range [][2]string{{"", "owner@example.com"}, {"A", "not-an-email"}} {
		if _, err := New("org_1", c[0], c[1], time.Now()); kernel.KindOf(err) != kernel.KindInvalid {
			t.Errorf("New(%q, %q) = %v, want invalid", c[0], c[1], err)
		}
	}
}
