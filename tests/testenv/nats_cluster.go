package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// NATSCluster is a JetStream cluster of the test's own: nodes on loopback ports, each with
// its storage in the test's temp folder. Kill a node (SIGKILL), Wipe its storage and Start
// it again to replace a machine.
type NATSCluster struct {
	Nodes []*NATSNode
}

// NATSNode is one server of a NATSCluster.
type NATSNode struct {
	Name string // server_name, also what JetStream reports as a stream's leader
	URL  string // its client URL
	conf string // its configuration file
	dir  string // its JetStream storage
	cmd  *exec.Cmd
	logs *os.File
}

// StartNATSCluster starts n servers that route to each other, and waits until JetStream
// can place a stream on all of them. Every node is killed at cleanup.
func StartNATSCluster(t testing.TB, n int) *NATSCluster {
	t.Helper()
	if _, err := os.Stat(NATSServerBinary); err != nil {
		SkipSuite(t, "NATS cluster", "no "+NATSServerBinary, "apt-get install nats-server")
	}
	c, err := NewNATSCluster(t.TempDir(), n, 30*time.Second)
	if c != nil {
		t.Cleanup(c.Stop)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// NewNATSCluster starts n servers that route to each other, their configuration, logs and
// storage in dir, and waits up to within until JetStream can place a stream on all of
// them (a main program's cluster: webhookload). Stop kills them, also after an error.
func NewNATSCluster(dir string, n int, within time.Duration) (*NATSCluster, error) {
	ports := make([][3]int, n) // client, cluster, monitoring
	for i := range ports {
		for j := range ports[i] {
			p, err := PickFreePort()
			if err != nil {
				return nil, err
			}
			ports[i][j] = p
		}
	}
	routes := make([]string, n)
	for i := range ports {
		routes[i] = fmt.Sprintf("nats-route://127.0.0.1:%d", ports[i][1])
	}
	c := &NATSCluster{}
	for i := range n {
		nd := &NATSNode{
			Name: fmt.Sprintf("n%d", i+1),
			URL:  fmt.Sprintf("nats://127.0.0.1:%d", ports[i][0]),
			conf: filepath.Join(dir, fmt.Sprintf("n%d.conf", i+1)),
			dir:  filepath.Join(dir, fmt.Sprintf("n%d-store", i+1)),
		}
		// no_advertise: clients know the nodes from their own list only, so that a proxy
		// in front of each node (webhookload -network) is never bypassed.
		conf := fmt.Sprintf(`server_name: %s
listen: "127.0.0.1:%d"
http: "127.0.0.1:%d"
jetstream { store_dir: %q }
cluster {
  name: "creatorapi-test"
  listen: "127.0.0.1:%d"
  routes: [%s]
  no_advertise: true
}
`, nd.Name, ports[i][0], ports[i][2], nd.dir, ports[i][1], strings.Join(routes, ", "))
		if err := os.WriteFile(nd.conf, []byte(conf), 0o600); err != nil {
			c.Stop()
			return nil, err
		}
		logs, err := os.Create(filepath.Join(dir, nd.Name+".log"))
		if err != nil {
			c.Stop()
			return nil, err
		}
		nd.logs = logs
		c.Nodes = append(c.Nodes, nd)
	}
	for _, nd := range c.Nodes {
		if err := nd.start(); err != nil {
			c.Stop()
			return nil, err
		}
	}
	if err := c.waitJetStream(within); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// Stop kills every node and closes its log.
func (c *NATSCluster) Stop() {
	for _, nd := range c.Nodes {
		nd.kill()
		if nd.logs != nil {
			_ = nd.logs.Close()
		}
	}
}

// URLs is the client URL list of every node, comma separated (CREATORAPI_EVENTS_BROKER).
func (c *NATSCluster) URLs() string {
	urls := make([]string, len(c.Nodes))
	for i, nd := range c.Nodes {
		urls[i] = nd.URL
	}
	return strings.Join(urls, ",")
}

// Node returns the node named name (nil when there is none).
func (c *NATSCluster) Node(name string) *NATSNode {
	for _, nd := range c.Nodes {
		if nd.Name == name {
			return nd
		}
	}
	return nil
}

// JetStream connects to the cluster (any node) for the test's own questions.
func (c *NATSCluster) JetStream(t testing.TB) jetstream.JetStream {
	t.Helper()
	nc, js, err := c.connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return js
}

func (c *NATSCluster) connect() (*nats.Conn, jetstream.JetStream, error) {
	nc, err := nats.Connect(c.URLs(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		return nil, nil, fmt.Errorf("connect to the NATS cluster: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("jetstream: %w", err)
	}
	return nc, js, nil
}

// WaitJetStream waits until the cluster's JetStream can place a stream on every node.
func (c *NATSCluster) WaitJetStream(t testing.TB, within time.Duration) {
	t.Helper()
	if err := c.waitJetStream(within); err != nil {
		t.Fatal(err)
	}
}

// waitJetStream: a meta leader answers an account request as soon as two of three agree,
// but a stream of three replicas is refused ("no suitable peers for placement") until the
// third has joined.
func (c *NATSCluster) waitJetStream(within time.Duration) error {
	nc, js, err := c.connect()
	if err != nil {
		return err
	}
	defer nc.Close()
	deadline := time.Now().Add(within)
	probe := "testenv_probe_" + randomHex(4)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := js.CreateStream(ctx, jetstream.StreamConfig{
			Name: probe, Subjects: []string{"testenv.probe." + probe}, Replicas: len(c.Nodes), Storage: jetstream.MemoryStorage,
		})
		if err == nil {
			err = js.DeleteStream(ctx, probe)
		}
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the NATS cluster's JetStream cannot place a stream on its %d nodes after %s: %w\n%s", len(c.Nodes), within, err, c.Logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Logs returns the end of every node's log (for a failure's message).
func (c *NATSCluster) Logs() string {
	var b strings.Builder
	for _, nd := range c.Nodes {
		data, _ := os.ReadFile(nd.logs.Name())
		if len(data) > 4000 {
			data = data[len(data)-4000:]
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", nd.Name, data)
	}
	return b.String()
}

// Start runs the node (again) on its ports and storage, and waits until it takes clients.
func (nd *NATSNode) Start(t testing.TB) {
	t.Helper()
	if err := nd.start(); err != nil {
		t.Fatal(err)
	}
}

func (nd *NATSNode) start() error {
	nd.cmd = exec.Command(NATSServerBinary, "-c", nd.conf)
	nd.cmd.Stdout, nd.cmd.Stderr = nd.logs, nd.logs
	if err := nd.cmd.Start(); err != nil {
		nd.cmd = nil
		return fmt.Errorf("start nats-server %s: %w", nd.Name, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		nc, err := nats.Connect(nd.URL, nats.Timeout(time.Second))
		if err == nil {
			nc.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nats-server %s on %s does not answer: %w", nd.Name, nd.URL, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Kill stops the node with SIGKILL (no goodbye to its peers); later calls do nothing.
func (nd *NATSNode) Kill(t testing.TB) {
	t.Helper()
	nd.kill()
}

func (nd *NATSNode) kill() {
	if nd.cmd == nil {
		return
	}
	_ = nd.cmd.Process.Kill()
	_ = nd.cmd.Wait()
	nd.cmd = nil
}

// PID is the running node's process id (0 when it is stopped), for its CPU time.
func (nd *NATSNode) PID() int {
	if nd.cmd == nil || nd.cmd.Process == nil {
		return 0
	}
	return nd.cmd.Process.Pid
}

// Wipe deletes the (stopped) node's JetStream storage: it comes back as a replaced machine.
func (nd *NATSNode) Wipe(t testing.TB) {
	t.Helper()
	if nd.cmd != nil {
		t.Fatalf("wipe %s while it runs", nd.Name)
	}
	if err := os.RemoveAll(nd.dir); err != nil {
		t.Fatal(err)
	}
}

// CopyLogs copies every node's whole log into dir (a failure's artifacts).
func (c *NATSCluster) CopyLogs(dir string) error {
	for _, nd := range c.Nodes {
		data, err := os.ReadFile(nd.logs.Name())
		if err != nil {
			return fmt.Errorf("read %s's log: %w", nd.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, nd.Name+".log"), data, 0o644); err != nil {
			return fmt.Errorf("copy %s's log: %w", nd.Name, err)
		}
	}
	return nil
}
