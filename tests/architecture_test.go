package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

const module = "github.com/creatorapi/creatorapi"

// importRule reports why pkg may not import imp, or "" when the edge is allowed.
// It encodes the dependency rule of docs/architecture.md.
func importRule(pkg, imp string) string {
	p, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return ""
	}
	i, internal := strings.CutPrefix(imp, module+"/")
	thirdParty := !internal && strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
	layer := func(path string) string { return strings.SplitN(path, "/", 2)[0] }
	moduleOf := func(path string) string { // "application/courses/query" -> "courses"
		parts := strings.Split(path, "/")
		if len(parts) < 2 {
			return ""
		}
		return parts[1]
	}
	switch layer(p) {
	case "domain":
		// IDNA is the one exception: the Go project's own package, which the standard
		// library vendors for net/http; e-mail addresses need it (kernel.NormalizeEmail).
		if thirdParty && imp != "golang.org/x/net/idna" {
			return "the domain imports only the standard library"
		}
		if internal && (layer(i) != "domain" || (moduleOf(i) != "kernel" && moduleOf(i) != moduleOf(p))) {
			return "a domain module imports only itself and domain/kernel"
		}
	case "application":
		if thirdParty {
			return "application code knows no framework (fiber, sqlx, watermill, fx...)"
		}
		if !internal {
			return ""
		}
		switch layer(i) {
		case "domain":
			if m := moduleOf(i); m != "kernel" && m != moduleOf(p) {
				return "application/" + moduleOf(p) + " must not import another module's domain"
			}
		case "application":
			if m := moduleOf(i); m != moduleOf(p) && m != "platform" && m != "events" {
				return "application modules talk through ports or events, not imports"
			}
		default:
			return "application code never imports " + layer(i)
		}
	case "adapters":
		if internal && (layer(i) == "ports" || layer(i) == "cmd" || layer(i) == "tests") {
			return "adapters never import " + layer(i)
		}
	case "ports":
		if internal && (layer(i) == "adapters" || layer(i) == "cmd" || layer(i) == "tests") {
			return "ports never import " + layer(i)
		}
		if internal && layer(i) == "ports" && portOf(i) != portOf(p) && i != sharedHTTPKit {
			return "a port never imports another port; share through " + sharedHTTPKit + " or the application"
		}
	case "cmd":
		if internal && layer(i) == "adapters" && !strings.HasPrefix(p+"/", compositionRoot+"/") {
			return "only the composition root (" + compositionRoot + ") wires adapters"
		}
	case "clients":
		// What integrators import: it knows the wire contract (the OpenAPI document), never
		// the service's code, so it could move to a module of its own unchanged.
		if internal && layer(i) != "clients" {
			return "clients import nothing of the service, only the wire contract"
		}
	case "migrations":
		if internal {
			return "migrations are data only"
		}
	}
	return ""
}

// sharedHTTPKit is the one ports package other ports may import: decoding, the error
// envelope, lists and cursors. It imports no port itself.
const sharedHTTPKit = "ports/http/web"

// compositionRoot is the one package outside tests/ that may import adapters.
const compositionRoot = "cmd/creatorapi/compose"

// portOf names the port a package belongs to: ports/http/api/v1 -> ports/http/api,
// ports/cli/demo -> ports/cli/demo, ports/consumers -> ports/consumers.
func portOf(path string) string {
	parts := strings.Split(path, "/")
	n := 2
	if len(parts) > 1 && (parts[1] == "http" || parts[1] == "cli") {
		n = 3
	}
	if len(parts) < n {
		return path
	}
	return strings.Join(parts[:n], "/")
}

// listedPackage is what go list says of a package, test files included: the rule holds
// for what the tests of a package import too (in-package and external _test files).
type listedPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

func TestDependencyRule(t *testing.T) {
	testenv.Parallel(t)
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var checked, testFiles int
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		checked++
		for kind, imports := range map[string][]string{"": p.Imports, " (tests)": p.TestImports, " (external tests)": p.XTestImports} {
			for _, imp := range imports {
				if kind != "" {
					testFiles++
				}
				if why := importRule(p.ImportPath, imp); why != "" {
					t.Errorf("%s%s imports %s: %s", p.ImportPath, kind, imp, why)
				}
			}
		}
	}
	if checked < 20 || testFiles == 0 {
		t.Fatalf("go list returned only %d packages and %d test-file imports", checked, testFiles)
	}
}

// The rule itself must catch each kind of forbidden edge.
func TestDependencyRuleCatchesViolations(t *testing.T) {
	m := func(s string) string { return module + "/" + s }
	for _, c := range []struct {
		pkg, imp string
		banned   bool
	}{
		{m("domain/courses"), "time", false},
		{m("domain/courses"), m("domain/kernel"), false},
		{m("domain/courses"), "github.com/gofiber/fiber/v2", true},
		{m("domain/courses"), m("domain/keys"), true},
		{m("domain/courses"), m("adapters/sqldb"), true},
		{m("application/courses/command"), m("domain/courses"), false},
		{m("application/courses/command"), m("application/platform"), false},
		{m("application/courses/command"), m("application/events"), false},
		{m("application/courses/command"), m("application/courses/query"), false},
		{m("application/courses/command"), m("domain/keys"), true},
		{m("application/orders/command"), m("application/enrollments/command"), true},
		{m("application/courses/command"), "github.com/jmoiron/sqlx", true},
		{m("application/courses/command"), "go.uber.org/fx", true},
		{m("application/courses/command"), m("adapters/sqlstore"), true},
		{m("application/courses/command"), m("ports/http/web"), true},
		{m("adapters/sqlstore"), m("application/courses/query"), false},
		{m("adapters/sqlstore"), m("ports/http/web"), true},
		{m("ports/http/api/v1"), m("application/courses"), false},
		{m("ports/http/api/v1"), m("adapters/sqlstore"), true},
		{m("ports/http/api/v1"), m("cmd/creatorapi/compose"), true},
		{m("cmd/creatorapi/compose"), m("adapters/sqlstore"), false},
		{m("cmd/creatorapi"), m("cmd/creatorapi/compose"), false},
		{m("cmd/creatorapi"), m("adapters/eventbus/router"), true},
		{m("cmd/creatorapi"), m("adapters/sqlstore"), true},
		{m("ports/http/operator"), m("ports/http/api/v1"), true},
		{m("ports/http/api/v1"), m("ports/http/operator"), true},
		{m("ports/consumers"), m("ports/http/api/v1"), true},
		{m("ports/cli/demo"), m("ports/consumers"), true},
		{m("ports/http/operator"), m("ports/http/web"), false},
		{m("ports/http/api/v1"), m("ports/http/api/v1/internal/x"), false},
		{m("ports/http/web"), m("ports/http/api/v1"), true},
		{m("tests"), m("adapters/sqlstore"), false},
		{m("clients/go/creatorapi"), m("adapters/webhooks"), true},
		{m("clients/go/creatorapi"), m("domain/kernel"), true},
		{m("clients/go/creatorapi"), "github.com/oapi-codegen/runtime", false},
		{m("tests"), m("clients/go/creatorapi"), false},
	} {
		if got := importRule(c.pkg, c.imp) != ""; got != c.banned {
			t.Errorf("%s -> %s: banned=%v, want %v (%s)", c.pkg, c.imp, got, c.banned, fmt.Sprint(importRule(c.pkg, c.imp)))
		}
	}
}
