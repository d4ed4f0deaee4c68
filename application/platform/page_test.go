package platform

import (
	"reflect"
	"testing"
	"time"
)

type row struct {
	at time.Time
	id string
}

func rowAt(r row) Position { return Position{CreatedAt: r.at, ID: r.id} }

// SeekPage pages like ORDER BY created_at DESC, id DESC with a keyset position, and
// CutPage drops the extra row into HasMore and Next.
func TestSeekPageWalksNewestFirstWithTies(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	items := []row{{t0, "a"}, {t0.Add(time.Minute), "b"}, {t0.Add(time.Minute), "c"}, {t0.Add(2 * time.Minute), "d"}, {t0, "e"}}
	var got []string
	req := PageRequest{Limit: 2}
	for pages := 1; ; pages++ {
		p := SeekPage(items, req, rowAt)
		for _, it := range p.Items {
			got = append(got, it.id)
		}
		if !p.HasMore {
			if p.Next != nil || pages != 3 {
				t.Fatalf("last page after %d pages has next %v", pages, p.Next)
			}
			break
		}
		if len(p.Items) != 2 || *p.Next != rowAt(p.Items[1]) {
			t.Fatalf("page %d: %+v", pages, p)
		}
		req.After = p.Next
	}
	if want := []string{"d", "c", "b", "e", "a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("walked %v; want %v", got, want)
	}
	if p := CutPage[row](nil, PageRequest{Limit: 3}, rowAt); p.Items == nil || len(p.Items) != 0 || p.HasMore {
		t.Fatalf("an empty page: %+v", p)
	}
}

func TestEarliestConsidersEveryInstant(t *testing.T) {
	var e Earliest
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.FixedZone("x", 3600))
	for _, d := range []time.Duration{5, -3, 2} {
		e.Consider(t0.Add(d * time.Minute))
	}
	if !e.OK || !e.At.Equal(t0.Add(-3*time.Minute)) || e.At.Location() != time.UTC {
		t.Fatalf("earliest %+v", e)
	}
}
