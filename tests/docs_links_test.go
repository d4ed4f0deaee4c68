package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The reference pages point only inside the repository, at things that exist: every
// relative link (and its #anchor), every backquoted path under a top-level folder, and
// every page (*.md) named in prose. A fresh clone is all a reader has.
func TestDocsPointAtWhatExists(t *testing.T) {
	t.Parallel()
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in docs/: %v", err)
	}
	for _, page := range append(pages, "../README.md") {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, broken := range brokenReferences(filepath.Dir(page), string(text)) {
			t.Errorf("%s: %s", strings.TrimPrefix(page, "../"), broken)
		}
	}
}

// The check finds what it is for: a link to a missing page or anchor, a missing path.
func TestDocsLinkCheckCatchesBrokenReferences(t *testing.T) {
	t.Parallel()
	text := "[gone](missing.md), [anchor](events.md#no-such-heading), `adapters/nowhere/file.go`, " +
		"[outside](../../shared/CONTRACT.md), " +
		"see docs/nothing.md, CONTRACT.md and `../shared/ARCHITECTURE.md`, " +
		"and fine: [events](events.md#partitions), docs/events.md, `adapters/sqldb`, " +
		"`adapters/webhooks.CommitWaker.Hand`, `adapters/eventbus/natstransport/{broker,forwarder}.go`, `migrations/*/00004_rate_limits.sql`, " +
		"`tests/artifacts/dashboard-a11y/sqlite` (what a run writes), but `tests/nothing/`"
	got := brokenReferences("../docs", text)
	if len(got) != 8 {
		t.Fatalf("want 8 broken references, got %d: %q", len(got), got)
	}
}

var (
	markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	backquoted   = regexp.MustCompile("`([^`\\s]+)`")
	pageName     = regexp.MustCompile("(?:^|[\\s(`])((?:\\.\\./|[\\w-]+/)*[\\w-]+\\.md)\\b")
	repoRoots    = []string{"domain/", "application/", "adapters/", "ports/", "cmd/", "migrations/", "tests/", "docs/", ".ci/"}
	// runOutputs hold what test runs write (ignored by git): a path below one is named,
	// not checked, since whether it exists depends on which runs came before, not on
	// the clone.
	runOutputs = []string{"tests/artifacts/"}
	// mediaTypes look like paths under application/ but are header values.
	mediaTypes = map[string]bool{"application/json": true}
)

// brokenReferences lists what text, a page in dir, names that does not exist. Fenced
// code blocks are commands and samples, not references, and are skipped.
func brokenReferences(dir, text string) []string {
	var broken []string
	for _, line := range outsideFences(text) {
		for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
			if err := checkLink(dir, m[1]); err != nil {
				broken = append(broken, err.Error())
			}
		}
		for _, m := range backquoted.FindAllStringSubmatch(line, -1) {
			if err := checkRepoPath(m[1]); err != nil {
				broken = append(broken, err.Error())
			}
		}
		prose := markdownLink.ReplaceAllString(line, "]") // links are checked above
		for _, m := range pageName.FindAllStringSubmatch(prose, -1) {
			if !pageExists(dir, m[1]) {
				broken = append(broken, fmt.Sprintf("names %s, which does not exist", m[1]))
			}
		}
	}
	return broken
}

// pageExists finds a page named in prose next to the page that names it or from the
// repository's root (docs/events.md).
func pageExists(dir, name string) bool {
	for _, base := range []string{dir, ".."} {
		path := filepath.Join(base, name)
		if _, err := os.Stat(path); err == nil && insideRepo(path) {
			return true
		}
	}
	return false
}

// insideRepo tells whether a path (relative to tests/) stays in the repository: a file
// next to the checkout is not there for a fresh clone.
func insideRepo(path string) bool {
	rel, err := filepath.Rel("..", path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func outsideFences(text string) []string {
	var lines []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			lines = append(lines, line)
		}
	}
	return lines
}

// checkLink checks a relative link's file and, when it has one, its #anchor.
func checkLink(dir, target string) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "/") {
		return nil
	}
	file, anchor, _ := strings.Cut(target, "#")
	path := filepath.Join(dir, file)
	if file == "" {
		return nil // an anchor on the same page; headings move with their page
	}
	text, err := os.ReadFile(path)
	if err != nil || !insideRepo(path) {
		return fmt.Errorf("links to %s, which does not exist in the repository", target)
	}
	if anchor != "" && !hasAnchor(string(text), anchor) {
		return fmt.Errorf("links to %s: no heading has that anchor", target)
	}
	return nil
}

// hasAnchor reports whether a heading of the page gets this anchor as GitHub makes
// them: lower case, punctuation other than - and _ dropped, spaces as hyphens.
func hasAnchor(page, anchor string) bool {
	for _, line := range outsideFences(page) {
		heading, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		heading = strings.TrimSpace(strings.TrimLeft(heading, "#"))
		var slug strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				slug.WriteRune(r)
			}
		}
		if slug.String() == anchor {
			return true
		}
	}
	return false
}

// checkRepoPath checks a backquoted path under a top-level folder: globs and {a,b}
// alternatives must each match something; a Go name after the package path
// (adapters/webhooks.DefaultLimits) names the package. Placeholders (<module>) are not
// paths.
func checkRepoPath(ref string) error {
	if !hasRepoRoot(ref) || mediaTypes[ref] || strings.ContainsAny(ref, "<>") || strings.Contains(ref, "...") || belowRunOutput(ref) {
		return nil
	}
	for _, alt := range expandBraces(ref) {
		if !repoPathExists(alt) {
			return fmt.Errorf("names `%s`, and %s does not exist", ref, alt)
		}
	}
	return nil
}

var goName = regexp.MustCompile(`^(.*/[^/.]+)\.[A-Z]\w*(\.\w+)*$`)

func repoPathExists(path string) bool {
	path = strings.TrimSuffix(path, "/")
	if found, _ := filepath.Glob(filepath.Join("..", path)); len(found) > 0 {
		return true
	}
	if m := goName.FindStringSubmatch(path); m != nil {
		found, _ := filepath.Glob(filepath.Join("..", m[1]))
		return len(found) > 0
	}
	return false
}

func belowRunOutput(ref string) bool {
	for _, dir := range runOutputs {
		if strings.HasPrefix(ref, dir) && ref != dir {
			return true
		}
	}
	return false
}

func hasRepoRoot(ref string) bool {
	for _, root := range repoRoots {
		if strings.HasPrefix(ref, root) {
			return true
		}
	}
	return false
}

// expandBraces turns a/{b,c}/d into a/b/d and a/c/d (one level of braces per group).
func expandBraces(ref string) []string {
	open := strings.Index(ref, "{")
	end := strings.Index(ref, "}")
	if open < 0 || end < open {
		return []string{ref}
	}
	var out []string
	for _, alt := range strings.Split(ref[open+1:end], ",") {
		out = append(out, expandBraces(ref[:open]+alt+ref[end+1:])...)
	}
	return out
}
