package platform

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
)

// The version registry: each API major with its release date and, once a successor is
// released, its sunset; routes and fields deprecated within a major. The specification
// allows breaking changes only under a new major and gives the old one six months once
// its successor is out. Nothing is deprecated while v1 has no successor: the registry
// only speaks when a major, route or field is listed here (docs/contract.md, Versioning).

// DeprecationWindow is how long a major lives after its successor's release.
const DeprecationWindow = 6 // months

// V1Released is when /api/v1 was released (its document frozen as released/v1.yaml).
var V1Released = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// PayloadRenderer renders an event as the webhook body of one payload version.
type PayloadRenderer func(ev events.Envelope) ([]byte, error)

// RenderV1 is the v1 webhook body: the envelope as the outbox holds it.
func RenderV1(ev events.Envelope) ([]byte, error) { return json.Marshal(ev) }

// Major is one API major (/api/v<Number>), which is also its webhook payload version.
type Major struct {
	Number   int
	Released time.Time
	// Sunset is set only once a successor is released: the successor's release plus
	// DeprecationWindow when left zero; a later date may be given, never an earlier one.
	Sunset time.Time
	// Migration is the page that tells how to move off this major (Link rel="deprecation").
	Migration string
	// Payload renders the webhook bodies of subscriptions created under this major.
	Payload PayloadRenderer
}

// Deprecation marks one route of a major, or one field of its responses, deprecated
// before the major itself is.
type Deprecation struct {
	Route     string // "GET /api/v1/courses/{id}", as the OpenAPI document names it
	Field     string // "" for the whole route; else the response field (data.items[].x)
	Since     time.Time
	Sunset    time.Time
	Migration string
}

// Notice is what a response of something deprecated says (RFC 9745, RFC 8594).
type Notice struct {
	Since, Sunset time.Time
	Link          string
}

// Versions is the registry, checked once when built.
type Versions struct {
	majors []Major
	routes []Deprecation
}

var routeLabel = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE) /api/v([0-9]+)/\S*$`)

// NewVersions checks the registry: majors numbered 1, 2... in release order, each with
// its payload renderer; a sunset only after a successor's release plus the window; every
// deprecation with a migration page and a sunset no earlier than the deprecation.
func NewVersions(majors []Major, deprecations []Deprecation) (*Versions, error) {
	if len(majors) == 0 {
		return nil, fmt.Errorf("versions: no API major")
	}
	ms := slices.Clone(majors)
	for i := range ms {
		m := &ms[i]
		switch {
		case m.Number != i+1:
			return nil, fmt.Errorf("versions: major %d listed where v%d belongs", m.Number, i+1)
		case m.Released.IsZero() || (i > 0 && !m.Released.After(ms[i-1].Released)):
			return nil, fmt.Errorf("versions: v%d needs a release date after its predecessor's", m.Number)
		case m.Payload == nil:
			return nil, fmt.Errorf("versions: v%d has no webhook payload renderer", m.Number)
		}
		if i+1 == len(ms) {
			if !m.Sunset.IsZero() {
				return nil, fmt.Errorf("versions: v%d has a sunset but no successor", m.Number)
			}
			continue
		}
		earliest := ms[i+1].Released.AddDate(0, DeprecationWindow, 0)
		if m.Sunset.IsZero() {
			m.Sunset = earliest
		}
		if m.Sunset.Before(earliest) {
			return nil, fmt.Errorf("versions: v%d's sunset %s is earlier than v%d's release plus %d months (%s)",
				m.Number, m.Sunset.Format(time.DateOnly), m.Number+1, DeprecationWindow, earliest.Format(time.DateOnly))
		}
		if m.Migration == "" {
			return nil, fmt.Errorf("versions: deprecated v%d needs a migration page", m.Number)
		}
	}
	for _, d := range deprecations {
		match := routeLabel.FindStringSubmatch(d.Route)
		if match == nil {
			return nil, fmt.Errorf("versions: deprecated route %q is not \"METHOD /api/vN/path\"", d.Route)
		}
		if n, _ := strconv.Atoi(match[2]); n < 1 || n > len(ms) {
			return nil, fmt.Errorf("versions: deprecated route %q names no known major", d.Route)
		}
		switch {
		case d.Since.IsZero() || d.Sunset.IsZero():
			return nil, fmt.Errorf("versions: deprecated %s needs its deprecation and sunset dates", d.Route)
		case d.Sunset.Before(d.Since):
			return nil, fmt.Errorf("versions: %s %s: the sunset %s is earlier than the deprecation %s", d.Route, d.Field,
				d.Sunset.Format(time.RFC3339), d.Since.Format(time.RFC3339))
		case d.Migration == "":
			return nil, fmt.Errorf("versions: deprecated %s needs a migration page", d.Route)
		}
	}
	return &Versions{majors: ms, routes: slices.Clone(deprecations)}, nil
}

// DefaultVersions is the production registry: v1, released, with no successor.
func DefaultVersions() (*Versions, error) {
	return NewVersions([]Major{{Number: 1, Released: V1Released, Payload: RenderV1}}, nil)
}

// Current is the newest major released by at: what a new webhook subscription records.
func (v *Versions) Current(at time.Time) Major {
	current := v.majors[0]
	for _, m := range v.majors[1:] {
		if !m.Released.After(at) {
			current = m
		}
	}
	return current
}

// All lists the majors, oldest first.
func (v *Versions) All() []Major { return slices.Clone(v.majors) }

// Major returns the major numbered n.
func (v *Versions) Major(n int) (Major, bool) {
	if n < 1 || n > len(v.majors) {
		return Major{}, false
	}
	return v.majors[n-1], true
}

// Deprecates tells whether anything at all is deprecated, so that the hot path of a
// registry with nothing deprecated (production today) does no work.
func (v *Versions) Deprecates() bool {
	return len(v.routes) > 0 || len(v.majors) > 1
}

// Of returns the notice for a call of route ("GET /api/v1/courses/{id}"): of the route
// or one of its response fields, or of its whole major; the earliest sunset wins.
func (v *Versions) Of(route string) (Notice, bool) {
	var out Notice
	found := false
	consider := func(n Notice) {
		if !found || n.Sunset.Before(out.Sunset) {
			out, found = n, true
		}
	}
	for _, d := range v.routes {
		if d.Route == route {
			consider(Notice{Since: d.Since, Sunset: d.Sunset, Link: d.Migration})
		}
	}
	if match := routeLabel.FindStringSubmatch(route); match != nil {
		n, _ := strconv.Atoi(match[2])
		if m, ok := v.Major(n); ok && !m.Sunset.IsZero() {
			successor, _ := v.Major(n + 1)
			consider(Notice{Since: successor.Released, Sunset: m.Sunset, Link: m.Migration})
		}
	}
	return out, found
}
