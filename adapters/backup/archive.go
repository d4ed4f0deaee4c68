package backup

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// writeArchive writes the manifest and then each file (name -> path on disk, in the
// manifest's order) as a gzipped tar at out, mode 0600: the file holds the master key and
// is as secret as the data folder. It goes through out.partial and a rename, so that a
// half-written backup never carries the final name, and it never replaces a file.
func writeArchive(out string, m Manifest, paths map[string]string) error {
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists: choose a new name (a backup never replaces a file)", out)
	}
	partial := out + ".partial"
	f, err := os.OpenFile(partial, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("create %s: %w", partial, err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(partial)
		}
	}()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := addBytes(tw, ManifestName, manifest); err != nil {
		return err
	}
	for _, file := range m.Files {
		if err := addFile(tw, file, paths[file.Name]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("write %s: %w", partial, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write %s: %w", partial, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", partial, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", partial, err)
	}
	ok = true
	if err := os.Rename(partial, out); err != nil {
		return fmt.Errorf("rename %s: %w", partial, err)
	}
	return nil
}

func addBytes(tw *tar.Writer, name string, b []byte) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := tw.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

func addFile(tw *tar.Writer, file File, path string) error {
	src, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", file.Name, err)
	}
	defer src.Close()
	if err := tw.WriteHeader(&tar.Header{Name: file.Name, Mode: 0o600, Size: file.Size, Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("write %s: %w", file.Name, err)
	}
	if _, err := io.Copy(tw, src); err != nil {
		return fmt.Errorf("write %s: %w", file.Name, err)
	}
	return nil
}

// ErrInvalid marks a backup file that a restore refuses: unreadable, truncated, altered,
// or of another format.
var ErrInvalid = errors.New("invalid backup")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// readArchive reads the manifest and extracts every file it lists into dir (mode 0600),
// checking each one's size and SHA-256; anything missing, extra or different is refused.
// It returns the manifest and the extracted paths by name.
func readArchive(in, dir string) (Manifest, map[string]string, error) {
	var m Manifest
	f, err := os.Open(in)
	if err != nil {
		return m, nil, fmt.Errorf("open %s: %w", in, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return m, nil, invalid("not a creatorapi backup (gzip): %v", err)
	}
	tr := tar.NewReader(zr)
	h, err := tr.Next()
	if err != nil || h.Name != ManifestName || h.Size > 1<<20 {
		return m, nil, invalid("the first entry is not %s", ManifestName)
	}
	raw, err := io.ReadAll(tr)
	if err != nil {
		return m, nil, invalid("read %s: %v", ManifestName, err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, nil, invalid("%s: %v", ManifestName, err)
	}
	if m.Format != Format {
		return m, nil, invalid("format %q, this build reads %q", m.Format, Format)
	}
	want := map[string]File{}
	for _, file := range m.Files {
		if file.Name != filepath.Base(file.Name) || file.Name == ManifestName {
			return m, nil, invalid("entry name %q", file.Name)
		}
		want[file.Name] = file
	}
	paths := map[string]string{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, nil, invalid("read the archive: %v", err)
		}
		file, ok := want[h.Name]
		if !ok || paths[h.Name] != "" {
			return m, nil, invalid("entry %q is not in the manifest", h.Name)
		}
		path := filepath.Join(dir, file.Name)
		if err := extract(tr, path, file); err != nil {
			return m, nil, err
		}
		paths[h.Name] = path
	}
	// The gzip trailer's CRC is checked at the end of the stream.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return m, nil, invalid("read the archive: %v", err)
	}
	for name := range want {
		if paths[name] == "" {
			return m, nil, invalid("%s is missing (a truncated file?)", name)
		}
	}
	return m, paths, nil
}

func extract(r io.Reader, path string, file File) error {
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return invalid("entry %q twice", file.Name)
		}
		return fmt.Errorf("extract %s: %w", file.Name, err)
	}
	defer dst.Close()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(dst, h), r)
	if err != nil {
		return invalid("read %s: %v", file.Name, err)
	}
	if n != file.Size || hex.EncodeToString(h.Sum(nil)) != file.SHA256 {
		return invalid("%s does not match its checksum in the manifest (altered or truncated)", file.Name)
	}
	if err := dst.Sync(); err != nil {
		return fmt.Errorf("extract %s: %w", file.Name, err)
	}
	return nil
}
