package main

import (
	"errors"
	"testing"
)

func TestWorkspaceCommandParsesFlagsAroundTheID(t *testing.T) {
	for _, args := range [][]string{{"--workspace", "org_1", "key_1"}, {"key_1", "--workspace", "org_1"}, {"-workspace=org_1", "key_1"}} {
		ws, id, err := workspaceCommand("key revoke", "KEY_ID", args)
		if err != nil || ws != "org_1" || id != "key_1" {
			t.Errorf("%v: %q %q %v", args, ws, id, err)
		}
	}
	for name, c := range map[string]struct {
		idName string
		args   []string
	}{
		"no workspace":        {"KEY_ID", []string{"key_1"}},
		"no id":               {"KEY_ID", []string{"--workspace", "org_1"}},
		"two ids":             {"KEY_ID", []string{"--workspace", "org_1", "a", "b"}},
		"id where none taken": {"", []string{"--workspace", "org_1", "extra"}},
		"unknown flag":        {"", []string{"--workspace", "org_1", "--force"}},
	} {
		var usage usageError
		if _, _, err := workspaceCommand("key revoke", c.idName, c.args); !errors.As(err, &usage) {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}
