package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
)

// The webhook payloads' released copy: the golden bodies of each public event type
// (tests/testdata/events/<type>.golden, one delivered body a line) as they were when v1
// was released, frozen beside the released document. A payload's shape is the set of
// field paths it shows (data.enrollments[].progress.percent) with the JSON kinds seen at
// each; the current golden files must show every released path with its kinds.

// openMaps are free-form string maps of the contract: their keys are sample data, so only
// the kind of their values is compared (as path "<map>.*").
var openMaps = []string{"data.metadata"}

// shape maps a field path to the JSON kinds seen there (null counted apart).
type shape map[string]map[string]bool

// CheckEvents compares every released golden file with the current one of the same type;
// a current file of a public type (a webhook of the current document) that was not released
// is listed as added. The golden folder also holds internal payloads, which are no contract.
func CheckEvents(released, current fs.FS, public []string) (Report, error) {
	names, err := fs.Glob(released, "*.golden")
	if err != nil {
		return Report{}, fmt.Errorf("list the released payloads: %w", err)
	}
	if len(names) == 0 {
		return Report{}, fmt.Errorf("no released payloads (*.golden) to compare with")
	}
	var out Report
	for _, name := range names {
		typ := strings.TrimSuffix(name, ".golden")
		before, err := readShape(released, name)
		if err != nil {
			return Report{}, err
		}
		after, err := readShape(current, name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				out.Breaking = append(out.Breaking, Finding{Rule: "event-type-removed", Path: "event:" + typ,
					Text: "the released event type has no golden payload any more"})
				continue
			}
			return Report{}, err
		}
		out.Breaking = append(out.Breaking, compareShapes(typ, before, after)...)
		out.Additive = append(out.Additive, addedFields(typ, before, after)...)
	}
	currentNames, err := fs.Glob(current, "*.golden")
	if err != nil {
		return Report{}, fmt.Errorf("list the current payloads: %w", err)
	}
	for _, name := range currentNames {
		if !slices.Contains(names, name) && slices.Contains(public, strings.TrimSuffix(name, ".golden")) {
			out.Additive = append(out.Additive, Finding{Rule: "event-type-added",
				Path: "event:" + strings.TrimSuffix(name, ".golden"), Text: "a payload not in the released copy"})
		}
	}
	return out, nil
}

func compareShapes(typ string, before, after shape) []Finding {
	var out []Finding
	for _, p := range sortedPaths(before) {
		now, ok := after[p]
		if !ok {
			out = append(out, Finding{Rule: "event-field-removed", Path: "event:" + typ,
				Text: fmt.Sprintf("field %s is gone", p)})
			continue
		}
		// A released kind must still be shown. A field seen only as null in one sample set
		// proves nothing about its type: it still exists.
		was, is := kinds(before[p]), kinds(now)
		if len(was) == 0 || len(is) == 0 {
			continue
		}
		for _, k := range was {
			if !slices.Contains(is, k) {
				out = append(out, Finding{Rule: "event-field-type-changed", Path: "event:" + typ,
					Text: fmt.Sprintf("field %s was %s, is now %s", p, strings.Join(was, "|"), strings.Join(is, "|"))})
				break
			}
		}
	}
	return out
}

func addedFields(typ string, before, after shape) []Finding {
	var out []Finding
	for _, p := range sortedPaths(after) {
		if _, ok := before[p]; !ok {
			out = append(out, Finding{Rule: "event-field-added", Path: "event:" + typ,
				Text: fmt.Sprintf("field %s (%s)", p, strings.Join(kinds(after[p]), "|"))})
		}
	}
	return out
}

func readShape(fsys fs.FS, name string) (shape, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("read payloads %s: %w", name, err)
	}
	s := shape{}
	lines := bufio.NewScanner(bytes.NewReader(raw))
	lines.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; lines.Scan(); n++ {
		if len(bytes.TrimSpace(lines.Bytes())) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(lines.Bytes()))
		dec.UseNumber()
		var body any
		if err := dec.Decode(&body); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		walk(s, "", body)
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("read payloads %s: %w", name, err)
	}
	return s, nil
}

// walk records the kind of v at p and descends into objects and arrays.
func walk(s shape, p string, v any) {
	if p != "" {
		if s[p] == nil {
			s[p] = map[string]bool{}
		}
		s[p][kindOf(v)] = true
	}
	switch v := v.(type) {
	case map[string]any:
		open := slices.Contains(openMaps, p)
		for k, child := range v {
			name := k
			if open {
				name = "*"
			}
			walk(s, join(p, name), child)
		}
	case []any:
		for _, child := range v {
			walk(s, p+"[]", child)
		}
	}
}

func join(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number: // integer and number are one kind: a sample of 50 and of 49.5 agree
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// kinds lists the non-null kinds seen, sorted.
func kinds(seen map[string]bool) []string {
	var out []string
	for k := range seen {
		if k != "null" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func sortedPaths(s shape) []string {
	out := make([]string, 0, len(s))
	for p := range s {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
