package tests

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
	"github.com/google/go-cmp/cmp"
)

// GET and PATCH /api/v1/students/{id}: scopes, isolation, merge-patch semantics, the
// e-mail rule, one student.updated per change and none for a no-op, and the write-only
// key's answer.
func TestStudentFetchAndMergePatch(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Academy"), env.CreateWorkspace(t, "Other")
		_, rw := env.CreateKey(t, ws, "read:students", "write:students")
		_, readOnly := env.CreateKey(t, ws, "read:students")
		_, writeOnly := env.CreateKey(t, ws, "write:students")
		_, foreign := env.CreateKey(t, other, "read:students", "write:students")

		var ada studentJSON
		env.API(rw).Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com", "firstName": "Ada", "lastName": "L",
			"metadata": map[string]string{"plan": "pro", "source": "ads"}}).Expect(t, http.StatusCreated).Decode(t, &ada)
		env.CreateStudent(t, ws, "taken@example.com")
		path := "/api/v1/students/" + ada.ID
		updates := func() int { return len(env.OutboxEventsOfType(t, events.StudentUpdated)) }

		// GET: the record to read:students, 403 without it, 404 from another workspace.
		var got studentJSON
		env.API(readOnly).Get(t, path).Expect(t, http.StatusOK).Decode(t, &got)
		if got.ID != ada.ID || got.Email != "ada@example.com" || got.Metadata["plan"] != "pro" || got.Enrollments == nil {
			t.Fatalf("GET %s = %+v", path, got)
		}
		env.API(writeOnly).Get(t, path).ExpectError(t, http.StatusForbidden, "forbidden")
		env.API(foreign).Get(t, path).ExpectError(t, http.StatusNotFound, "not_found")
		env.API(rw).Get(t, "/api/v1/students/stu_unknown").ExpectError(t, http.StatusNotFound, "not_found")

		// PATCH: 403 without write:students, 404 from another workspace (nothing changes).
		env.API(readOnly).Do(t, http.MethodPatch, path, map[string]any{"lastName": "X"}).ExpectError(t, http.StatusForbidden, "forbidden")
		env.API(foreign).Do(t, http.MethodPatch, path, map[string]any{"lastName": "X"}).ExpectError(t, http.StatusNotFound, "not_found")
		if n := updates(); n != 0 {
			t.Fatalf("%d student.updated before any change", n)
		}

		// A merge patch: named fields change, metadata merges, null removes a key.
		env.Clock.Advance(time.Minute)
		var patched studentJSON
		env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"lastName": "Byron", "externalId": "crm-7",
			"metadata": map[string]any{"plan": "gold", "source": nil, "seats": "3"}}).Expect(t, http.StatusOK).Decode(t, &patched)
		want := map[string]string{"plan": "gold", "seats": "3"}
		if patched.FirstName != "Ada" || patched.LastName != "Byron" || patched.ExternalID != "crm-7" || !reflect.DeepEqual(patched.Metadata, want) ||
			!patched.UpdatedAt.After(ada.UpdatedAt) {
			t.Fatalf("patched %+v, want firstName kept, lastName and externalId set, metadata %v, updatedAt moved", patched, want)
		}
		if n := updates(); n != 1 {
			t.Fatalf("%d student.updated after one change, want 1", n)
		}
		ev := env.OutboxEventsOfType(t, events.StudentUpdated)[0]
		var data studentJSON
		if err := json.Unmarshal(ev.Data, &data); err != nil || data.LastName != "Byron" || !reflect.DeepEqual(data.Metadata, want) {
			t.Fatalf("student.updated data %s (%v)", ev.Data, err)
		}

		// The same patch again changes nothing: 200 as it is, no event, updatedAt stays.
		env.Clock.Advance(time.Minute)
		var same studentJSON
		env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"lastName": "Byron", "metadata": map[string]any{"plan": "gold", "gone": nil}}).
			Expect(t, http.StatusOK).Decode(t, &same)
		env.API(rw).Do(t, http.MethodPatch, path, map[string]any{}).Expect(t, http.StatusOK)
		if !same.UpdatedAt.Equal(patched.UpdatedAt) || updates() != 1 {
			t.Fatalf("no-op patch moved updatedAt (%v -> %v) or emitted (%d events)", patched.UpdatedAt, same.UpdatedAt, updates())
		}

		// null clears a name, "metadata": null removes every key.
		var cleared studentJSON // a fresh value: decoding into a filled map would merge
		env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"firstName": nil, "metadata": nil}).Expect(t, http.StatusOK).Decode(t, &cleared)
		if cleared.FirstName != "" || len(cleared.Metadata) != 0 || cleared.LastName != "Byron" || updates() != 2 {
			t.Fatalf("after nulls: %+v, %d events", cleared, updates())
		}

		// Validation: 422 naming the field, nothing changes.
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"email": nil}), "email")
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"email": "TAKEN@example.com"}), "email")
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"email": "not an address"}), "email")
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"firstName": 5}), "firstName")
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"nickname": "A"}), "nickname")
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"externalId": strings.Repeat("x", 256)}), "externalId")
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"metadata": map[string]any{"k": 1}}), "metadata.k")
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, "[]"), "body")
		many := map[string]any{}
		for i := 0; i < 51; i++ {
			many["key"+string(rune('a'+i%26))+string(rune('a'+i/26))] = "v"
		}
		expectInvalid(t, env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"metadata": many}), "metadata")
		got = studentJSON{}
		env.API(rw).Get(t, path).Expect(t, http.StatusOK).Decode(t, &got)
		if got.Email != "ada@example.com" || got.LastName != "Byron" || len(got.Metadata) != 0 || updates() != 2 {
			t.Fatalf("refused patches changed the student: %+v (%d events)", got, updates())
		}

		// A new address is stored and frees the old one.
		env.API(rw).Do(t, http.MethodPatch, path, map[string]any{"email": "ada@lovelace.example"}).Expect(t, http.StatusOK).Decode(t, &got)
		if got.Email != "ada@lovelace.example" || updates() != 3 {
			t.Fatalf("e-mail change: %+v", got)
		}
		env.API(rw).Post(t, "/api/v1/students", map[string]any{"email": "ada@example.com"}).Expect(t, http.StatusCreated)

		// A write-only key's patch works, and answers only the id.
		r := env.API(writeOnly).Do(t, http.MethodPatch, path, map[string]any{"lastName": "King"}).Expect(t, http.StatusOK)
		var ref map[string]json.RawMessage
		r.Decode(t, &ref)
		if want := map[string]json.RawMessage{"id": json.RawMessage(`"` + ada.ID + `"`)}; !reflect.DeepEqual(ref, want) {
			t.Fatalf("write-only patch answered %s, want only the id", r.Body)
		}
		if updates() != 4 {
			t.Fatalf("%d student.updated, want 4", updates())
		}
	})
}

// ?externalId= finds a CRM's contact by its own id: exact match, combined with the other
// filters, the cursor bound to it, and only the caller's workspace.
func TestStudentListByExternalID(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws, other := env.CreateWorkspace(t, "Academy"), env.CreateWorkspace(t, "Other")
		key, foreign := env.LearningKey(t, ws), env.LearningKey(t, other)
		create := func(k, email, externalID string) string {
			var s studentJSON
			env.API(k).Post(t, "/api/v1/students", map[string]any{"email": email, "externalId": externalID}).Expect(t, http.StatusCreated).Decode(t, &s)
			return s.ID
		}
		first := create(key, "a@example.com", "crm-1")
		env.Clock.Advance(time.Second)
		second := create(key, "b@example.com", "crm-1") // externalId is not unique: the CRM's business
		create(key, "c@example.com", "crm-2")
		create(key, "d@example.com", "")
		create(foreign, "a@example.com", "crm-1")

		var page studentList
		env.API(key).Get(t, "/api/v1/students?externalId=crm-1").Expect(t, http.StatusOK).Decode(t, &page)
		if diff := cmp.Diff([]string{second, first}, page.ids()); diff != "" {
			t.Fatalf("?externalId=crm-1, want the two, newest first (-want +got):\n%s", diff)
		}
		env.API(key).Get(t, "/api/v1/students?externalId=%20crm-2%20").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 1 || page.Data[0].ExternalID != "crm-2" {
			t.Fatalf("?externalId= with spaces listed %+v", page.Data)
		}
		env.API(key).Get(t, "/api/v1/students?externalId=crm-1&email=B@example.com").Expect(t, http.StatusOK).Decode(t, &page)
		if diff := cmp.Diff([]string{second}, page.ids()); diff != "" {
			t.Fatalf("externalId AND email (-want +got):\n%s", diff)
		}
		env.API(key).Get(t, "/api/v1/students?externalId=CRM-1").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 0 {
			t.Fatalf("externalId is matched exactly, got %+v", page.Data)
		}

		// The cursor is bound to the filter.
		env.API(key).Get(t, "/api/v1/students?externalId=crm-1&limit=1").Expect(t, http.StatusOK).Decode(t, &page)
		if page.Pagination.Cursor == nil {
			t.Fatal("no cursor on the first of two pages")
		}
		cursor := url.QueryEscape(*page.Pagination.Cursor)
		env.API(key).Get(t, "/api/v1/students?externalId=crm-1&limit=1&cursor="+cursor).Expect(t, http.StatusOK).Decode(t, &page)
		if diff := cmp.Diff([]string{first}, page.ids()); diff != "" || page.Pagination.HasMore {
			t.Fatalf("second page (-want +got):\n%s\nhas_more %v, want false", diff, page.Pagination.HasMore)
		}
		expectInvalid(t, env.API(key).Get(t, "/api/v1/students?externalId=crm-2&limit=1&cursor="+cursor), "cursor")
		expectInvalid(t, env.API(key).Get(t, "/api/v1/students?limit=1&cursor="+cursor), "cursor")
		expectInvalid(t, env.API(key).Get(t, "/api/v1/students?externalId="), "externalId")
		expectInvalid(t, env.API(key).Get(t, "/api/v1/students?externalId=%20"), "externalId")

		// Another workspace's contact with the same CRM id never shows.
		env.API(foreign).Get(t, "/api/v1/students?externalId=crm-2").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 0 {
			t.Fatalf("another workspace's crm-2 listed: %+v", page.Data)
		}
	})
}
