package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Browser returns the path of a Chromium (Debian's chromium package) for browser tests.
// Without one the tests skip loudly; under CI (CI=true) that is a failure, never a skip.
func Browser(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CREATORAPI_TEST_BROWSER"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	SkipSuite(t, "Browser", "no chromium found", "apt-get install -y chromium, or set CREATORAPI_TEST_BROWSER")
	return ""
}

// GalleryVar asks the browser suites for a screenshot of every page they check (make
// gallery), not only of the pages that fail: capturing full pages was 40 % of the phones
// tour's chromium CPU, which every run paid for pictures nobody looked at.
const GalleryVar = "CREATORAPI_TEST_GALLERY"

// GalleryWanted tells whether GalleryVar is set.
func GalleryWanted() bool { return os.Getenv(GalleryVar) != "" }

// ArtifactDir is where tests leave files for people to look at (screenshots):
// CREATORAPI_TEST_ARTIFACTS, or tests/artifacts/<name> in the repository.
func ArtifactDir(t testing.TB, name string) string {
	t.Helper()
	base := os.Getenv("CREATORAPI_TEST_ARTIFACTS")
	if base == "" {
		base = filepath.Join(moduleRoot(t), "tests", "artifacts")
	}
	dir := filepath.Join(base, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifact folder: %v", err)
	}
	return dir
}

// moduleRoot is the folder of the go.mod above the test's working folder (go test runs a
// package's tests in its folder). Not runtime.Caller: a -trimpath build (CI's) records
// module paths, not folders.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("working folder: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the test's working folder")
		}
		dir = parent
	}
}
