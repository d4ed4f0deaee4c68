package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// transportEnv returns the service's variables for a transport, and a function that
// removes what the run left behind (its JetStream stream, with its consumers).
func transportEnv(transport, natsURL string) ([]string, func(), error) {
	switch transport {
	case "sql":
		return nil, func() {}, nil
	case "nats":
		var b [5]byte
		_, _ = rand.Read(b[:])
		prefix := "wl" + hex.EncodeToString(b[:])
		env := []string{"CREATORAPI_EVENTS_BROKER=" + natsURL, "CREATORAPI_EVENTS_STREAM=" + prefix}
		return env, func() { testenv.DeleteStream(natsURL, prefix+"_events") }, nil
	}
	return nil, nil, fmt.Errorf("-transport: %q is neither sql nor nats", transport)
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
