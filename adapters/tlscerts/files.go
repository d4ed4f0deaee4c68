// Package tlscerts provides the HTTPS listener's certificates: from files (Files, reloaded
// on SIGHUP and when the files change) or from an ACME CA (ACME, kept in the database).
package tlscerts

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// FilesPollEvery is how often the files' modification times are compared.
const FilesPollEvery = 2 * time.Second

// Files serves the certificate and key in two PEM files. Reload reads them again; a pair
// that does not load (a half-written file, a key of another certificate, an expired
// certificate) keeps the current one serving and is logged.
type Files struct {
	certPath, keyPath string
	logger            *slog.Logger
	current           atomic.Pointer[tls.Certificate]
	stamp             atomic.Value // string: both files' size and modification time
}

// NewFiles loads the pair once: a bad pair at start is an error (nothing to serve).
func NewFiles(certPath, keyPath string, logger *slog.Logger) (*Files, error) {
	f := &Files{certPath: certPath, keyPath: keyPath, logger: logger}
	if err := f.Reload(); err != nil {
		return nil, err
	}
	return f, nil
}

// GetCertificate is tls.Config.GetCertificate.
func (f *Files) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return f.current.Load(), nil
}

// Reload reads the pair and serves it if it is valid.
func (f *Files) Reload() error {
	stamp := f.filesStamp()
	cert, err := tls.LoadX509KeyPair(f.certPath, f.keyPath)
	if err == nil {
		cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0])
	}
	if err == nil && time.Now().After(cert.Leaf.NotAfter) {
		err = fmt.Errorf("the certificate expired at %s", cert.Leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	f.stamp.Store(stamp) // a bad pair is not retried until the files change again
	if err != nil {
		return fmt.Errorf("TLS certificate %s and key %s: %w", f.certPath, f.keyPath, err)
	}
	f.current.Store(&cert)
	f.logger.Info("TLS certificate loaded", "cert_file", f.certPath, "subject", cert.Leaf.Subject.String(),
		"not_after", cert.Leaf.NotAfter.UTC().Format(time.RFC3339))
	return nil
}

// Changed reports whether either file's size or modification time moved since the last load.
func (f *Files) Changed() bool {
	old, _ := f.stamp.Load().(string)
	return f.filesStamp() != old
}

func (f *Files) filesStamp() string {
	s := ""
	for _, p := range []string{f.certPath, f.keyPath} {
		if fi, err := os.Stat(p); err == nil {
			s += fmt.Sprintf("%d/%d;", fi.Size(), fi.ModTime().UnixNano())
		} else {
			s += "missing;"
		}
	}
	return s
}

// reloadLogged reloads and logs a failure (the old pair keeps serving).
func (f *Files) reloadLogged(why string) {
	if err := f.Reload(); err != nil {
		f.logger.Error("TLS certificate not reloaded; the previous one keeps serving", "trigger", why, "error", err)
	}
}

// Watcher reloads on SIGHUP and when the files change (polled every FilesPollEvery: no
// file-notification dependency, and it sees a Kubernetes secret's symlink swap too).
func (f *Files) Watcher() *FilesWatcher { return &FilesWatcher{f: f, every: FilesPollEvery} }

// FilesWatcher is a background worker (Start/Stop).
type FilesWatcher struct {
	f     *Files
	every time.Duration
	stop  chan struct{}
	done  chan struct{}
}

// Start begins watching.
func (w *FilesWatcher) Start(context.Context) error {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(w.done)
		defer signal.Stop(hup)
		tick := time.NewTicker(w.every)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-hup:
				w.f.reloadLogged("SIGHUP")
			case <-tick.C:
				if w.f.Changed() {
					w.f.reloadLogged("files changed")
				}
			}
		}
	}()
	return nil
}

// Stop ends watching.
func (w *FilesWatcher) Stop(ctx context.Context) error {
	if w.stop == nil {
		return nil
	}
	close(w.stop)
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		return errors.Join(ctx.Err(), errors.New("TLS file watcher did not stop"))
	}
}
