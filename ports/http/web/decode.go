package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/go-playground/validator/v10"
	"github.com/gofiber/fiber/v2"
)

// Decoder reads request bodies strictly: one JSON object, exact-case names without
// duplicates, no unknown fields, right types, text without control characters, then
// validator/v10 rules. Every failure is a 422 naming the field.
type Decoder struct {
	validate *validator.Validate
}

// NewDecoder builds a decoder whose messages use the JSON field names.
func NewDecoder() *Decoder {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	return &Decoder{validate: v}
}

// Body decodes the request body into dst and validates it. The decoder has
// encoding/json/v2 semantics: member names match exactly (case included), a duplicate
// member or invalid UTF-8 is an error, unknown members are refused, and the body must
// hold exactly one JSON value. Every string it decoded is then checked as text.
func (d *Decoder) Body(c *fiber.Ctx, dst any) error {
	body, err := RawBody(c)
	if err != nil {
		return err
	}
	return d.Value(body, dst)
}

// RawBody is the request body after Body's checks of the request itself (not
// compressed, not empty, JSON media type), for a handler that reads it in parts.
func RawBody(c *fiber.Ctx) ([]byte, error) {
	// Compressed bodies are refused before anything inflates them: fiber's c.Body()
	// would, without a bound, so 1 MiB of gzip could become a gigabyte.
	if enc := c.Get(fiber.HeaderContentEncoding); enc != "" && !strings.EqualFold(enc, "identity") {
		return nil, Invalid(fiber.HeaderContentEncoding, "compressed request bodies are not accepted; send the JSON as is")
	}
	body := c.Request().Body()
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, Invalid("body", "request body is required (a JSON object)")
	}
	if ct := c.Get(fiber.HeaderContentType); ct != "" && !isJSONMediaType(ct) {
		return nil, Invalid("body", "Content-Type must be application/json")
	}
	return body, nil
}

// OptionalBody is Body for endpoints whose body may be left out: an empty one leaves
// dst as it is.
func (d *Decoder) OptionalBody(c *fiber.Ctx, dst any) error {
	if len(bytes.TrimSpace(c.Request().Body())) == 0 && c.Get(fiber.HeaderContentEncoding) == "" {
		return nil
	}
	return d.Body(c, dst)
}

// isJSONMediaType accepts application/json with optional parameters, a charset only
// as utf-8; application/jsonx or application/json-patch+json are other types.
func isJSONMediaType(ct string) bool {
	mediaType, params, err := mime.ParseMediaType(ct)
	if err != nil || mediaType != fiber.MIMEApplicationJSON {
		return false
	}
	charset, ok := params["charset"]
	return !ok || strings.EqualFold(charset, "utf-8")
}

// Struct validates an already decoded value.
func (d *Decoder) Struct(v any) error {
	err := d.validate.Struct(v)
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return err
	}
	fe := verrs[0]
	field := strings.TrimPrefix(fe.Namespace(), fe.StructNamespace()[:strings.IndexByte(fe.StructNamespace()+".", '.')]+".")
	return Invalid(field, "%s", ruleMessage(field, fe))
}

func ruleMessage(field string, fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return field + " is required"
	case "email":
		return field + " must be a valid e-mail address"
	case "max":
		if fe.Kind() == reflect.Map || fe.Kind() == reflect.Slice {
			return fmt.Sprintf("%s must have at most %s entries", field, fe.Param())
		}
		if fe.Kind() == reflect.String {
			return fmt.Sprintf("%s must be at most %s characters", field, fe.Param())
		}
		return fmt.Sprintf("%s must be at most %s", field, fe.Param())
	case "min":
		if fe.Kind() == reflect.String {
			return fmt.Sprintf("%s must be at least %s characters", field, fe.Param())
		}
		if fe.Kind() == reflect.Map || fe.Kind() == reflect.Slice {
			return fmt.Sprintf("%s must have at least %s entries", field, fe.Param())
		}
		return fmt.Sprintf("%s must be at least %s", field, fe.Param())
	case "oneof":
		return fmt.Sprintf("%s must be one of %s", field, strings.ReplaceAll(fe.Param(), " ", ", "))
	case "gte", "lte", "gt", "lt":
		return fmt.Sprintf("%s must be %s %s", field, map[string]string{"gte": ">=", "lte": "<=", "gt": ">", "lt": "<"}[fe.Tag()], fe.Param())
	}
	return fmt.Sprintf("%s is invalid (%s)", field, fe.Tag())
}

func decodeProblem(err error, dst any) *Problem {
	var syntax *jsontext.SyntacticError
	var semantic *json.SemanticError
	switch {
	case errors.As(err, &syntax):
		field := fieldOfPointer(syntax.JSONPointer)
		switch {
		case errors.Is(err, jsontext.ErrDuplicateName):
			return Invalid(orBody(field), "duplicate field %q", field)
		case strings.Contains(err.Error(), "invalid UTF-8"), strings.Contains(err.Error(), "surrogate"):
			return Invalid(orBody(field), "%s must be valid UTF-8", orBody(field))
		case errors.Is(err, io.ErrUnexpectedEOF):
			return Invalid("body", "malformed JSON: unexpected end of input")
		}
		return Invalid("body", "malformed JSON at byte %d", syntax.ByteOffset)
	case errors.As(err, &semantic):
		field := fieldOfPointer(semantic.JSONPointer)
		switch {
		case errors.Is(err, json.ErrUnknownName):
			if known := caseVariantOf(dst, field); known != "" {
				return Invalid(field, "unknown field %q (field names are case-sensitive: %q)", field, known)
			}
			return Invalid(orBody(field), "unknown field %q", field)
		case field == "" && semantic.GoType != nil:
			return Invalid("body", "request body must be a JSON object")
		case semantic.GoType != nil && semantic.JSONKind != 0:
			return Invalid(orBody(field), "%s must be %s, not %s", orBody(field), jsonKind(semantic.GoType), kindName(semantic.JSONKind))
		}
		return Invalid(orBody(field), "%s is invalid", orBody(field))
	}
	return Invalid("body", "malformed JSON")
}

func orBody(field string) string {
	if field == "" {
		return "body"
	}
	return field
}

// fieldOfPointer turns a JSON pointer (/items/0/courseId) into the field name the
// messages use (items[0].courseId).
func fieldOfPointer(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// caseVariantOf returns the field of dst's top-level struct whose JSON name equals
// field but for case, or "".
func caseVariantOf(dst any, field string) string {
	t := reflect.TypeOf(dst)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != field && strings.EqualFold(name, field) {
			return name
		}
	}
	return ""
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return k.String()
}

func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return t.String()
}
