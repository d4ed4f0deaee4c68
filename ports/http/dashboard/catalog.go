package dashboard

import (
	"bytes"
	"embed"
	"encoding/json"
	"time"

	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
)

// The verification snippets are files of their own so that tests run exactly what the
// page shows (tests/webhook_snippets_test.go) against a real delivery.
//
//go:embed snippets/verify.go.txt snippets/verify.py snippets/verify.mjs
var snippetFS embed.FS

type catalogEntry struct {
	catalog.Entry
	Example string
}

type catalogData struct {
	Entries                []catalogEntry
	GoSnippet, PySnippet   string
	NodeSnippet, TestNotes string
}

func catalogView(now time.Time) catalogData {
	var d catalogData
	for _, e := range catalog.Entries {
		env, _ := json.Marshal(e.Envelope("evt_test_01j0example0000000000000000", "org_example", now.Truncate(time.Second)))
		var pretty bytes.Buffer
		_ = json.Indent(&pretty, env, "", "  ")
		d.Entries = append(d.Entries, catalogEntry{Entry: e, Example: pretty.String()})
	}
	d.GoSnippet = snippet("snippets/verify.go.txt")
	d.PySnippet = snippet("snippets/verify.py")
	d.NodeSnippet = snippet("snippets/verify.mjs")
	return d
}

func snippet(name string) string {
	b, _ := snippetFS.ReadFile(name)
	return string(b)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
