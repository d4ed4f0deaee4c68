package web

import (
	"reflect"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Value decodes one JSON value already cut out of a body (an item of a batch) with the
// rules of Body: strict names, no unknown members, text checks, then validator tags.
// The 422's param names the field within the value; the caller prefixes its place.
func (d *Decoder) Value(raw []byte, dst any) error {
	if err := json.Unmarshal(raw, dst, json.RejectUnknownMembers(true)); err != nil {
		return decodeProblem(err, dst)
	}
	if err := checkFields(reflect.ValueOf(dst), "", false); err != nil {
		return err
	}
	return d.Struct(dst)
}

// NullMembers names the members of a JSON object that are null: a merge patch tells
// "remove" (null) from "leave as it is" (absent), which decoding into pointers cannot.
func NullMembers(object []byte) (map[string]bool, error) {
	var members map[string]jsontext.Value
	if err := json.Unmarshal(object, &members); err != nil {
		return nil, Invalid("body", "request body must be a JSON object")
	}
	out := map[string]bool{}
	for name, v := range members {
		// Decoding null into a jsontext.Value may leave it empty (the zero value).
		if len(v) == 0 || v.Kind() == 'n' {
			out[name] = true
		}
	}
	return out, nil
}

// Place prefixes the param and the message of a problem with where the value sits
// (items[3]): a problem of the whole value (param body) becomes a problem of that place.
func Place(p *Problem, place string) *Problem {
	out := *p
	out.Message = place + ": " + out.Message
	switch out.Param {
	case "", "body":
		out.Param = place
	default:
		out.Param = place + "." + out.Param
	}
	return &out
}
