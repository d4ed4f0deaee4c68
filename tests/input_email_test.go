package tests

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Addresses are stored and compared in one form: an ASCII local part, an IDN domain as
// its A-label, no invisible characters, and no Unicode case folding (the Kelvin sign
// U+212A must not pass for "k" and open another student's record). Names refuse the
// format characters (bidi overrides, zero-width spaces).
func TestEmailsHaveOneFormAndNamesNoFormatCharacters(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:students", "write:students")
		api := env.API(key)

		var kate studentJSON
		api.Post(t, "/api/v1/students", map[string]any{"email": "kate@example.com"}).Expect(t, http.StatusCreated).Decode(t, &kate)

		for _, email := range []string{
			"\u212Aate@example.com",  // Kelvin sign: strings.ToLower makes it "k"
			"ka\u200Bte@example.com", // zero-width space
			"kate\u202E@example.com", // right-to-left override
			"kate@exa\u200Dmple.com", // zero-width joiner in the domain
			"kät@example.com",        // a local part beyond ASCII
		} {
			r := api.Post(t, "/api/v1/students", map[string]any{"email": email})
			if r.Status != http.StatusUnprocessableEntity {
				t.Fatalf("POST %q: %d %s, want 422 (kate is %s)", email, r.Status, r.Body, kate.ID)
			}
			expectInvalid(t, r, "email")
			expectInvalid(t, api.Get(t, "/api/v1/students?email="+url.QueryEscape(email)), "email")
		}

		// An internationalized domain is kept as its A-label, so both spellings are one address.
		var ada studentJSON
		api.Post(t, "/api/v1/students", map[string]any{"email": "ada@bücher.example"}).Expect(t, http.StatusCreated).Decode(t, &ada)
		if ada.Email != "ada@xn--bcher-kva.example" {
			t.Fatalf("stored address %q, want ada@xn--bcher-kva.example", ada.Email)
		}
		var again studentJSON
		api.Post(t, "/api/v1/students", map[string]any{"email": "ADA@xn--bcher-kva.example"}).Expect(t, http.StatusOK).Decode(t, &again)
		var list studentList
		api.Get(t, "/api/v1/students?email="+url.QueryEscape("ada@bücher.example")).Expect(t, http.StatusOK).Decode(t, &list)
		if again.ID != ada.ID || len(list.Data) != 1 || list.Data[0].ID != ada.ID {
			t.Fatalf("the A-label and Unicode spellings found %s and %+v, want %s", again.ID, list.Data, ada.ID)
		}

		for field, value := range map[string]string{"firstName": "\u202Egpj.exe", "lastName": "Love\u200Blace"} {
			r := api.Post(t, "/api/v1/students", map[string]any{"email": "grace@example.com", field: value})
			expectInvalid(t, r, field)
		}
		r := env.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/keys", map[string]any{"name": "CRM\u202E sync", "scopes": []string{"read:courses"}})
		r.ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
	})
}
