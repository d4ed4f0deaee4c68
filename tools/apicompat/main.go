// Command apicompat is the breaking-change gate of /api/v1 (make api-compat): it compares
// the current OpenAPI document with the released one, and the current webhook payloads
// (the golden files) with the released ones, fails on any breaking change and lists the
// additive ones. It is a module of its own (tools/apicompat/go.mod) so that oasdiff and
// kin-openapi never enter the service's module graph.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "the repository root the other paths are relative to")
	releasedDoc := flag.String("released", "ports/http/api/v1/openapi/released/v1.yaml", "the released OpenAPI document")
	currentDoc := flag.String("current", "ports/http/api/v1/openapi/openapi.yaml", "the current OpenAPI document")
	releasedEvents := flag.String("released-events", "ports/http/api/v1/openapi/released/v1-events", "folder of the released golden payloads")
	currentEvents := flag.String("current-events", "tests/testdata/events", "folder of the current golden payloads")
	flag.Parse()
	in := func(p string) string { return filepath.Join(*root, p) }
	breaking, err := run(os.Stdout, in(*releasedDoc), in(*currentDoc), in(*releasedEvents), in(*currentEvents))
	if err != nil {
		fmt.Fprintln(os.Stderr, "api-compat:", err)
		os.Exit(2)
	}
	if breaking {
		os.Exit(1)
	}
}

// run prints the report and says whether anything breaks.
func run(w io.Writer, releasedDoc, currentDoc, releasedEvents, currentEvents string) (bool, error) {
	released, err := os.ReadFile(releasedDoc)
	if err != nil {
		return false, err
	}
	current, err := os.ReadFile(currentDoc)
	if err != nil {
		return false, err
	}
	doc, err := CheckDocument(released, current)
	if err != nil {
		return false, err
	}
	public, err := WebhookTypes(current)
	if err != nil {
		return false, err
	}
	payloads, err := CheckEvents(os.DirFS(releasedEvents), os.DirFS(currentEvents), public)
	if err != nil {
		return false, err
	}
	print := func(title string, findings []Finding) {
		fmt.Fprintf(w, "%s (%d)\n", title, len(findings))
		for _, f := range findings {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	fmt.Fprintf(w, "api-compat: %s against %s; %s against %s\n", currentDoc, releasedDoc, currentEvents, releasedEvents)
	print("breaking changes in the document", doc.Breaking)
	print("breaking changes in the webhook payloads", payloads.Breaking)
	print("additive changes in the document", doc.Additive)
	print("additive changes in the webhook payloads", payloads.Additive)
	broken := len(doc.Breaking)+len(payloads.Breaking) > 0
	if broken {
		fmt.Fprintln(w, "FAIL: v1 allows additive changes only; breaking ones belong in a new major (docs/contract.md, Versioning)")
	} else {
		fmt.Fprintln(w, "ok: v1 stays compatible")
	}
	return broken, nil
}
