package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// DropLoopbackPort makes the kernel drop every packet to and from a loopback port until
// the end of t (iptables, as root): a network partition as the peers see it, where nothing
// acknowledges what a connection sends. TCPProxy.Blackhole is not that: its sockets still
// acknowledge, so only timeouts of the application's own notice it.
func DropLoopbackPort(t testing.TB, port string) {
	t.Helper()
	if os.Geteuid() != 0 {
		SkipSuite(t, "Dropped-packet", "iptables needs root", "run the tests as root")
	}
	if _, err := exec.LookPath("iptables"); err != nil {
		SkipSuite(t, "Dropped-packet", "iptables is not installed", "apt-get install iptables")
	}
	for _, match := range []string{"--dport", "--sport"} {
		rule := []string{"INPUT", "-i", "lo", "-p", "tcp", match, port, "-j", "DROP"}
		iptables(t, append([]string{"-I"}, rule...)...)
		t.Cleanup(func() { iptables(t, append([]string{"-D"}, rule...)...) })
	}
}

func iptables(t testing.TB, args ...string) {
	t.Helper()
	if out, err := exec.Command("iptables", args...).CombinedOutput(); err != nil {
		t.Fatalf("iptables %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
