package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/gofiber/fiber/v2"
)

// Decoder reads request bodies strictly: one JSON object, no unknown fields, right
// types, then validator/v10 rules. Every failure is a 422 naming the field.
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

// Body decodes the request body into dst and validates it.
func (d *Decoder) Body(c *fiber.Ctx, dst any) error {
	body := c.Body()
	if len(bytes.TrimSpace(body)) == 0 {
		return Invalid("body", "request body is required (a JSON object)")
	}
	if ct := c.Get(fiber.HeaderContentType); ct != "" && !strings.HasPrefix(strings.ToLower(ct), fiber.MIMEApplicationJSON) {
		return Invalid("body", "Content-Type must be application/json")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeProblem(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Invalid("body", "request body must hold exactly one JSON object")
	}
	return d.Struct(dst)
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

func decodeProblem(err error) *Problem {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return Invalid("body", "malformed JSON at byte %d", syntax.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Invalid("body", "malformed JSON: unexpected end of input")
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return Invalid("body", "request body must be a JSON object")
		}
		return Invalid(field, "%s must be %s, not %s", field, jsonKind(typeErr.Type), typeErr.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return Invalid(name, "unknown field %q", name)
	}
	return Invalid("body", "malformed JSON")
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
