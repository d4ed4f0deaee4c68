package eventbus

import "testing"

func TestPartGroupNamesReadBack(t *testing.T) {
	cases := []struct {
		consumer    string
		part, parts int
		want        string
	}{
		{"analytics-projection", 0, 1, "analytics-projection"},
		{"analytics-projection", 3, 8, "analytics-projection/p3of8"},
		{"webhook-fanout", 0, 2, "webhook-fanout/p0of2"},
	}
	for _, c := range cases {
		g := PartGroup(c.consumer, c.part, c.parts)
		if g != c.want {
			t.Fatalf("PartGroup(%s, %d, %d) = %s, want %s", c.consumer, c.part, c.parts, g, c.want)
		}
		part, parts, ok := ParsePartGroup(g, c.consumer)
		if !ok || part != c.part || parts != c.parts {
			t.Fatalf("ParsePartGroup(%s) = %d, %d, %v", g, part, parts, ok)
		}
	}
	for _, g := range []string{"other", "analytics-projection/p8of8", "analytics-projection/pxof8", "analytics-projection-2"} {
		if _, _, ok := ParsePartGroup(g, "analytics-projection"); ok {
			t.Fatalf("ParsePartGroup(%s) accepted another consumer's or a broken name", g)
		}
	}
	if part, parts, ok := PartOfGroup("a/b/p1of4"); !ok || part != 1 || parts != 4 {
		t.Fatalf("PartOfGroup(a/b/p1of4) = %d, %d, %v", part, parts, ok)
	}
	if _, _, ok := PartOfGroup("plain"); ok {
		t.Fatal("PartOfGroup(plain) took a name without partitions")
	}
}
