package web

import (
	"reflect"
	"testing"
)

func TestNullMembersNamesOnlyNulls(t *testing.T) {
	got, err := NullMembers([]byte(`{"a": null, "b": "x", "c": {"d": null}, "e": 0}`))
	if err != nil || !reflect.DeepEqual(got, map[string]bool{"a": true}) {
		t.Fatalf("NullMembers = %v, %v; want only a", got, err)
	}
	if _, err := NullMembers([]byte(`[]`)); err == nil {
		t.Fatal("an array is not an object")
	}
}

func TestPlacePrefixesParamAndMessage(t *testing.T) {
	p := Place(Invalid("email", "email is invalid"), "items[3]")
	if p.Param != "items[3].email" || p.Message != "items[3]: email is invalid" {
		t.Fatalf("placed %+v", p)
	}
	if p := Place(Invalid("body", "must be an object"), "items[0]"); p.Param != "items[0]" {
		t.Fatalf("a problem of the whole value names the item: %+v", p)
	}
}
