package web

import "testing"

func TestTextFault(t *testing.T) {
	cases := []struct {
		in        string
		multiline bool
		ok        bool
	}{
		{"", false, true},
		{"Ada Lovelace", false, true},
		{"Zoë 😀 日本", false, true},
		{"\uFFFD is a real character", false, true},
		{"a\x00b", false, false},
		{"a\x00b", true, false},
		{"\xff", false, false},
		{"\xc3", false, false},
		{"\xed\xa0\x80", false, false}, // an encoded surrogate
		{"a\tb", false, false},
		{"a\tb\r\nc\n", true, true},
		{"a\x07", true, false},
		{"a\x7f", false, false},
		{"a\u0085", true, false},
		{"a\u2028b", false, true}, // a separator, not a control character
	}
	for _, c := range cases {
		if got := TextFault(c.in, c.multiline) == ""; got != c.ok {
			t.Errorf("TextFault(%q, multiline=%v) = %q, want ok=%v", c.in, c.multiline, TextFault(c.in, c.multiline), c.ok)
		}
	}
	if err := CheckText("title", "a\x00", false); err == nil {
		t.Fatal("CheckText accepted NUL")
	} else if p, _ := ProblemOf(err); p.Param != "title" || p.Status != 422 {
		t.Fatalf("CheckText: %+v", p)
	}
}
