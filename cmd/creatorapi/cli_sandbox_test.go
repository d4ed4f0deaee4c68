package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// key create --test and webhook create --test act on the workspace's sandbox: an svc_test_
// key and an endpoint of org_test_..., the sandbox opened by the first of them.
func TestCreateWithTestActsOnTheSandbox(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"CREATORAPI_DATA_DIR": dir}
	cli := func(args ...string) map[string]any {
		t.Helper()
		var out, errOut bytes.Buffer
		c := &CLI{stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
		if code := c.run(args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%v: %q: %v", args, out.String(), err)
		}
		return v
	}
	ws := cli("workspace", "create", "--name", "Academy", "--owner-email", "o@example.com")["id"].(string)
	live := cli("key", "create", "--workspace", ws, "--name", "Live", "--scopes", "read:courses")
	test := cli("key", "create", "--workspace", ws, "--name", "Dev", "--scopes", "read:courses", "--test")
	if !strings.HasPrefix(test["secret"].(string), "svc_test_") || test["livemode"] != false || test["workspaceId"] != "org_test_"+strings.TrimPrefix(ws, "org_") {
		t.Fatalf("test key %v", test)
	}
	if strings.HasPrefix(live["secret"].(string), "svc_test_") || live["livemode"] != true || live["workspaceId"] != ws {
		t.Fatalf("live key %v", live)
	}
	hook := cli("webhook", "create", "--workspace", ws, "--url", "https://hooks.example.com/in", "--events", "order.paid", "--test")
	if hook["workspaceId"] != test["workspaceId"] || hook["livemode"] != false {
		t.Fatalf("test endpoint %v", hook)
	}
}
