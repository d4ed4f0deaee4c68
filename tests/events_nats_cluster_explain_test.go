package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// explainClusterFailure makes a failed cluster run tell its own story: every durable
// consumer's state on the broker (pending, outstanding, pull requests waiting, leader),
// who holds which (consumer, partition) pair, and each instance's whole log ending in its
// goroutines (SIGQUIT), written with the NATS servers' logs to an artifact folder.
func explainClusterFailure(t *testing.T, db *sqlx.DB, insts []*instance, cluster *testenv.NATSCluster, consumers func() []*jetstream.ConsumerInfo) {
	var b strings.Builder
	for _, c := range consumers() {
		leader := "none"
		if c.Cluster != nil {
			leader = c.Cluster.Leader
		}
		fmt.Fprintf(&b, "consumer %s: pending %d, outstanding %d, pull requests %d, delivered %d (stream %d), ack floor %d, redelivered %d, max outstanding %d, leader %s\n",
			c.Name, c.NumPending, c.NumAckPending, c.NumWaiting, c.Delivered.Consumer, c.Delivered.Stream, c.AckFloor.Consumer, c.NumRedelivered, c.Config.MaxAckPending, leader)
	}
	var leases []struct {
		Consumer, Owner, Expires string
		Part                     int
	}
	if err := db.Select(&leases, `SELECT consumer, part, owner, expires_at::text AS expires FROM event_leases WHERE parts > 1 ORDER BY consumer, part`); err != nil {
		fmt.Fprintf(&b, "leases: %v\n", err)
	}
	for _, l := range leases {
		fmt.Fprintf(&b, "lease %s part %d: owner %q until %s\n", l.Consumer, l.Part, l.Owner, l.Expires)
	}
	fmt.Fprintf(&b, "now %s\n", time.Now().UTC().Format(time.RFC3339Nano))
	dir := testenv.ArtifactDir(t, fmt.Sprintf("%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().Unix()))
	for i, in := range insts {
		_ = in.cmd.Process.Signal(syscall.SIGQUIT) // the Go runtime prints every goroutine and exits
		exited := make(chan struct{})
		go func() { _ = in.cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = in.cmd.Process.Kill()
			<-exited
		}
		path := filepath.Join(dir, fmt.Sprintf("instance-%d.log", i+1))
		if err := os.WriteFile(path, in.logs.Bytes(), 0o644); err != nil {
			t.Errorf("artifact %s: %v", path, err)
		}
	}
	if err := cluster.CopyLogs(dir); err != nil {
		t.Error(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "state.txt"), []byte(b.String()), 0o644); err != nil {
		t.Errorf("artifact: %v", err)
	}
	t.Logf("the cluster's state when the test failed (instances' logs with their goroutines, and the servers' logs, in %s):\n%s", dir, b.String())
}
