package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// builtBinary is the creatorapi binary of this test process, built by the first test
// that asks for it (Binary) and removed when Main returns. One build per package run:
// every `go build -o` into a new folder links again (3-13 s on the shared two cores),
// and a dozen tests use the binary.
var builtBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Binary returns the path of the creatorapi binary built from this checkout (once per
// test process; tests only run it, never change it). A failed build fails every caller.
func Binary(t testing.TB) string {
	t.Helper()
	b := &builtBinary
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "creatorapi-bin-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "creatorapi")
		// By import path: a test's working folder is its package's, inside the module.
		cmd := exec.Command("go", "build", "-o", b.path, "github.com/creatorapi/creatorapi/cmd/creatorapi")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// removeBinary deletes the built binary's folder (Main calls it after the run).
func removeBinary() {
	if builtBinary.dir != "" {
		_ = os.RemoveAll(builtBinary.dir)
	}
}
