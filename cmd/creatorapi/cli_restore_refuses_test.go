package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A damaged or foreign backup is refused before anything is written: a flipped byte, a
// truncated file, a manifest of another format, a schema newer than this build, a
// checksum that does not match; the target folder stays without a database.
func TestRestoreRefusesADamagedBackup(t *testing.T) {
	f := backupUnderLoad(t, testenv.NewSQLiteURL(t))
	good, err := os.ReadFile(f.file)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	cases := map[string]struct {
		content []byte
		says    string
	}{
		"flipped byte":   {flipped, "invalid backup"},
		"truncated":      {good[:len(good)/2], "invalid backup"},
		"empty":          {nil, "invalid backup"},
		"other format":   {rewriteManifest(t, good, func(m map[string]any) { m["format"] = "creatorapi-backup/9" }), "format"},
		"newer schema":   {rewriteManifest(t, good, func(m map[string]any) { m["schemaVersion"] = 99999 }), "newer than this build"},
		"wrong checksum": {rewriteManifest(t, good, func(m map[string]any) { m["files"].([]any)[0].(map[string]any)["sha256"] = strings.Repeat("0", 64) }), "checksum"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "bad.backup")
			if err := os.WriteFile(in, c.content, 0o600); err != nil {
				t.Fatal(err)
			}
			dst := t.TempDir()
			cli, _, errs := cliOn(map[string]string{"CREATORAPI_DATA_DIR": dst})
			if code := cli.run([]string{"restore", "--in", in}); code == 0 || !strings.Contains(errs.String(), c.says) {
				t.Fatalf("exit %d, stderr %q; want a refusal saying %q", code, errs, c.says)
			}
			left, _ := os.ReadDir(dst)
			for _, e := range left {
				if e.Name() == "creatorapi.db" || e.Name() == "secret.key" {
					t.Errorf("a refused restore left %s in the data folder", e.Name())
				}
			}
		})
	}
}

// rewriteManifest returns the backup with its manifest changed by edit, every other entry
// as it was.
func rewriteManifest(t *testing.T, backup []byte, edit func(map[string]any)) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(backup))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == "manifest.json" {
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
			edit(m)
			if body, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
