package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// transportSetup is a run's transport: the service's variables, the nats-server processes
// whose CPU counts in an event's cost, and what removes what the run left behind.
type transportSetup struct {
	env     []string
	brokers []int
	cleanup func()
}

// clusterNodes is the size of -nats-cluster's JetStream cluster, and its replicas.
const clusterNodes = 3

// transportEnv sets up a transport: for nats, a stream of the run's own on cfg.natsURL, or
// with -nats-cluster a three-node cluster of the run's own (storage under dir), the stream
// and its consumers replicated on every node.
func transportEnv(transport string, cfg config, dir string) (transportSetup, error) {
	switch transport {
	case "sql":
		return transportSetup{cleanup: func() {}}, nil
	case "nats":
		var b [5]byte
		_, _ = rand.Read(b[:])
		prefix := "wl" + hex.EncodeToString(b[:])
		env := []string{"CREATORAPI_EVENTS_STREAM=" + prefix}
		if !cfg.natsCluster {
			env = append(env, "CREATORAPI_EVENTS_BROKER="+cfg.natsURL)
			return transportSetup{env: env, brokers: []int{brokerPID(cfg.natsURL)}, cleanup: func() { testenv.DeleteStream(cfg.natsURL, prefix+"_events") }}, nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return transportSetup{}, err
		}
		c, err := testenv.NewNATSCluster(dir, clusterNodes, 30*time.Second)
		if err != nil {
			return transportSetup{}, err
		}
		env = append(env, "CREATORAPI_EVENTS_BROKER="+c.URLs(), fmt.Sprintf("CREATORAPI_EVENTS_REPLICAS=%d", clusterNodes))
		var pids []int
		for _, nd := range c.Nodes {
			pids = append(pids, nd.PID())
		}
		return transportSetup{env: env, brokers: pids, cleanup: c.Stop}, nil
	}
	return transportSetup{}, fmt.Errorf("-transport: %q is neither sql nor nats", transport)
}

// brokerPID finds the nats-server serving natsURL's port on this machine (0 when none
// is found, e.g. a remote server), so that its CPU counts in the cost of an event. The
// server may be shared with other users: its CPU then counts theirs too.
func brokerPID(natsURL string) int {
	u, err := url.Parse(natsURL)
	if err != nil {
		return 0
	}
	port := u.Port()
	if port == "" {
		port = "4222"
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		cmd, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
		if len(args) == 0 || filepath.Base(args[0]) != "nats-server" {
			continue
		}
		for i, a := range args {
			if (a == "-p" || a == "--port") && i+1 < len(args) && args[i+1] == port {
				var pid int
				fmt.Sscan(filepath.Base(d), &pid)
				return pid
			}
		}
	}
	return 0
}
