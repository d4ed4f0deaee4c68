package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// PostgresServer is a PostgreSQL cluster of the test's own (initdb and pg_ctl from the
// machine's PostgreSQL binaries, on a free loopback port), which the test may restart and
// crash. As root the binaries run as the postgres user (initdb refuses root).
type PostgresServer struct {
	URL  string
	bin  string
	data string
	port int
	as   string // user to run as, "" for the current one
}

// StartPostgresServer initialises and starts a cluster; stopped (immediately) and
// removed at cleanup. Skipped loudly when no PostgreSQL binaries are installed.
func StartPostgresServer(t testing.TB) *PostgresServer {
	t.Helper()
	bin := postgresBinDir()
	if bin == "" {
		SkipSuite(t, "PostgreSQL fault", "no initdb/pg_ctl found", "install the PostgreSQL server package (initdb, pg_ctl)")
	}
	root, err := os.MkdirTemp("", "creatorapi-pg-")
	if err != nil {
		t.Fatal(err)
	}
	s := &PostgresServer{bin: bin, data: filepath.Join(root, "data"), port: freePort(t)}
	if os.Geteuid() == 0 {
		s.as = "postgres"
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root needs a postgres user for initdb: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(root, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		_ = s.ctl("stop", "-m", "immediate")
		os.RemoveAll(root)
	})
	if out, err := s.run("initdb", "-D", s.data, "-A", "trust", "-U", "postgres", "--no-sync"); err != nil {
		t.Fatalf("initdb: %v: %s", err, out)
	}
	s.Start(t)
	s.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
	return s
}

// Start starts the cluster and waits until it accepts connections.
func (s *PostgresServer) Start(t testing.TB) {
	t.Helper()
	opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s -c max_connections=100", s.port, filepath.Dir(s.data))
	if out, err := s.runOut("pg_ctl", "-D", s.data, "-l", filepath.Join(filepath.Dir(s.data), "log"), "-o", opts, "-w", "start"); err != nil {
		t.Fatalf("pg_ctl start: %v: %s", err, out)
	}
}

// Restart stops the cluster cleanly (fast: sessions are ended) and starts it again.
func (s *PostgresServer) Restart(t testing.TB) {
	t.Helper()
	if err := s.ctl("stop", "-m", "fast"); err != nil {
		t.Fatalf("pg_ctl stop -m fast: %v", err)
	}
	s.Start(t)
}

// Crash kills the cluster (immediate: no checkpoint, recovery from WAL at the next start).
func (s *PostgresServer) Crash(t testing.TB) {
	t.Helper()
	if err := s.ctl("stop", "-m", "immediate"); err != nil {
		t.Fatalf("pg_ctl stop -m immediate: %v", err)
	}
}

func (s *PostgresServer) ctl(args ...string) error {
	out, err := s.runOut("pg_ctl", append([]string{"-D", s.data, "-w"}, args...)...)
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

func (s *PostgresServer) run(name string, args ...string) ([]byte, error) {
	return s.runOut(name, args...)
}

func (s *PostgresServer) runOut(name string, args ...string) ([]byte, error) {
	path := filepath.Join(s.bin, name)
	var cmd *exec.Cmd
	if s.as != "" {
		cmd = exec.Command("runuser", append([]string{"-u", s.as, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = os.TempDir()
	return cmd.CombinedOutput()
}

// postgresBinDir finds initdb and pg_ctl: pg_config --bindir, then Debian's layout, then PATH.
func postgresBinDir() string {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if dir := strings.TrimSpace(string(out)); exists(filepath.Join(dir, "initdb")) {
			return dir
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) > 0 {
		return filepath.Dir(matches[len(matches)-1])
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
