package benchkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// BuildBinary builds ./cmd/creatorapi into dir and returns its path: the benchmarks
// measure the binary users run, not an in-process graph. The build's output goes to
// stderr, so a program's report on stdout stays clean.
func BuildBinary(dir string) (string, error) {
	bin := filepath.Join(dir, "creatorapi")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/creatorapi")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build creatorapi: %w", err)
	}
	return bin, nil
}
