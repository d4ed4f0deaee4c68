package main

import (
	"strings"

	"github.com/oasdiff/oasdiff/checker"
)

// Our rules for /api/v1, on top of oasdiff's levels. oasdiff rates a change ERR (breaks
// clients), WARN (may break them) or INFO; the gate fails on WARN and ERR, since the
// specification allows breaking changes only under a new major (/v2). The overrides below
// are where our contract is stricter or looser than oasdiff's defaults; each says why.
var severityOverrides = map[string]checker.Level{
	// Within a major nothing is removed, deprecated or not: a deprecation announces the
	// successor major, whose release (plus six months) ends the whole of v1. So removals that
	// oasdiff accepts after a deprecation are breaking here.
	"api-path-removed-with-deprecation":                   checker.ERR,
	"api-removed-with-deprecation":                        checker.ERR,
	"request-parameter-removed-with-deprecation":          checker.ERR,
	"request-property-removed-with-deprecation":           checker.ERR,
	"response-required-property-removed-with-deprecation": checker.ERR,
	// Our resources always carry their documented fields (the document marks few of them
	// required, as they are the resource shapes the webhooks send too): removing an
	// optional response field or header breaks integrators that read it.
	"response-optional-property-removed": checker.ERR,
	"optional-response-header-removed":   checker.ERR,
	// A response enum that loses a value breaks clients that match on it; the issue lists it.
	"response-property-enum-value-removed": checker.ERR,
	// A new value in a response enum (a new event type, status or source) is additive:
	// the reference tells clients to accept values they do not know (Stripe's rule for
	// new event types), so the gate lists it instead of failing.
	"response-property-enum-value-added": checker.INFO,
}

// ignored rules say nothing about the contract: info.version is the document's own
// edition, the major is in the URL (/api/v1), so "a breaking change without a version
// bump" only repeats the breaking finding itself.
var ignored = map[string]bool{
	"api-version-not-bumped": true,
}

// A webhook is a request the service sends: oasdiff checks its body with the request rules,
// written for a server that receives it, but here the receiver is the integrator. So on a
// webhook a new field, required or not, is additive (the sandbox's livemode, say), and a
// field that may now be missing or null breaks receivers that read it.
var webhookSeverityOverrides = map[string]checker.Level{
	"new-required-request-property":              checker.INFO,
	"new-required-request-property-with-default": checker.INFO,
	"request-property-became-optional":           checker.ERR,
	"request-property-became-nullable":           checker.ERR,
	"request-body-became-optional":               checker.ERR,
	"request-body-became-nullable":               checker.ERR,
	"request-property-enum-value-added":          checker.INFO,
}

// levelOf is the level of a change under our rules.
func levelOf(change checker.Change) checker.Level {
	if strings.HasPrefix(change.GetPath(), "webhook:") {
		if level, ok := webhookSeverityOverrides[change.GetId()]; ok {
			return level
		}
	}
	return change.GetLevel()
}
