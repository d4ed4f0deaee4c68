package tests

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A key that may write students but not read them (a landing page's) learns nothing of
// an existing student by posting its address: the same 200, with the id only. A key
// that may read gets the whole record, and a new student is 201 with its record.
func TestWriteOnlyKeyGetsOnlyTheIDOfAnExistingStudent(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, writeOnly := env.CreateKey(t, ws, "write:students")
		_, readWrite := env.CreateKey(t, ws, "read:students", "write:students")
		body := map[string]any{"email": "ada@example.com", "firstName": "Ada", "metadata": map[string]string{"plan": "gold"}}

		var created studentJSON
		env.API(writeOnly).Post(t, "/api/v1/students", body).Expect(t, http.StatusCreated).Decode(t, &created)
		if created.ID == "" || created.Email != "ada@example.com" {
			t.Fatalf("created student %+v, want its record", created)
		}

		r := env.API(writeOnly).Post(t, "/api/v1/students", map[string]any{"email": "ADA@example.com"}).Expect(t, http.StatusOK)
		var got map[string]json.RawMessage
		r.Decode(t, &got)
		if want := map[string]json.RawMessage{"id": json.RawMessage(`"` + created.ID + `"`)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("write-only key posting an existing address got %s, want only {\"id\":%q}", r.Body, created.ID)
		}

		var full studentJSON
		env.API(readWrite).Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}).Expect(t, http.StatusOK).Decode(t, &full)
		if full.ID != created.ID || full.FirstName != "Ada" || full.Metadata["plan"] != "gold" {
			t.Fatalf("read-write key got %+v, want the whole existing record", full)
		}
	})
}
