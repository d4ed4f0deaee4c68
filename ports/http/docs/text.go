package docs

import "strings"

// sections splits the document's description at its "## " headings.
func sections(description string) []section {
	var out []section
	cur := section{ID: "overview", Title: "Overview"}
	var buf []string
	flush := func() {
		cur.Paragraphs = paragraphs(strings.Join(buf, "\n"))
		if len(cur.Paragraphs) > 0 {
			out = append(out, cur)
		}
		buf = nil
	}
	for _, line := range strings.Split(description, "\n") {
		if title, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			cur = section{ID: slug(title), Title: title}
			continue
		}
		buf = append(buf, line)
	}
	flush()
	return out
}

// paragraphs splits text at blank lines; `backticks` become code pieces. The template
// escapes every piece: the document's text is never trusted as HTML.
func paragraphs(text string) []paragraph {
	var out []paragraph
	for _, block := range strings.Split(strings.TrimSpace(text), "\n\n") {
		block = strings.Join(strings.Fields(block), " ")
		if block == "" {
			continue
		}
		var p paragraph
		for i, part := range strings.Split(block, "`") {
			if part != "" {
				p = append(p, piece{Text: part, Code: i%2 == 1})
			}
		}
		out = append(out, p)
	}
	return out
}

func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// inline is text as one paragraph (for table cells).
func inline(text string) paragraph {
	var out paragraph
	for i, p := range paragraphs(text) {
		if i > 0 {
			out = append(out, piece{Text: " "})
		}
		out = append(out, p...)
	}
	return out
}
