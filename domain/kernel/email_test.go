package kernel

import "testing"

func TestNormalizeEmailHasOneForm(t *testing.T) {
	for in, want := range map[string]string{
		"Ann@Example.COM":           "Ann@Example.COM",
		"ada@bücher.example":        "ada@xn--bcher-kva.example",
		"ada@BÜCHER.example":        "", // IDNA2008 has no capitals outside ASCII
		"ada@Bücher.example":        "ada@xn--bcher-kva.example",
		"\u212Aate@example.com":     "", // Kelvin sign
		"kate@example.\u212Aom":     "",
		"ka\u200Bte@example.com":    "",
		"kate@exam\u00ADple.com":    "", // soft hyphen
		"\u202Eetak@example.com":    "",
		"kät@example.com":           "",
		"ada@xn--bcher-kva.example": "ada@xn--bcher-kva.example",
		"ada@bücher.example.\u200D": "",
	} {
		got, err := NormalizeEmail("email", in)
		if want == "" {
			if KindOf(err) != KindInvalid {
				t.Errorf("%q accepted as %q", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	if EmailKey("\u212Aate@example.com") == EmailKey("kate@example.com") {
		t.Error("EmailKey folds the Kelvin sign onto k")
	}
	if EmailKey("Ann@Example.COM") != "ann@example.com" {
		t.Errorf("EmailKey %q", EmailKey("Ann@Example.COM"))
	}
}
