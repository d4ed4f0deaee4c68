package eventbus

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxPackageLines bounds each package of the event bus (non-test .go lines): a package
// past it has seams that want to be subpackages, as adapters/watermill had at 4,000.
const maxPackageLines = 1600

// packageLines counts the non-test .go lines of each directory under root.
func packageLines(t *testing.T, root string) map[string]int {
	t.Helper()
	lines := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines[filepath.Dir(path)] += bytes.Count(b, []byte("\n"))
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", root, err)
	}
	return lines
}

func TestEveryEventBusPackageStaysUnderTheLineBound(t *testing.T) {
	lines := packageLines(t, ".")
	if len(lines) < 8 {
		t.Fatalf("found %d packages under adapters/eventbus, want the root and its subpackages", len(lines))
	}
	for dir, n := range lines {
		if n > maxPackageLines {
			t.Errorf("adapters/eventbus/%s has %d lines, over %d: split it along its seams", dir, n, maxPackageLines)
		}
	}
}
