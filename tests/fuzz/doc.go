// Package fuzz holds the native Go fuzzers of the service's inputs: every public and
// operator endpoint on SQLite and PostgreSQL, and raw bytes on a real listener. They live
// apart from tests so that their instrumented build (`make fuzz-native`, run by CI)
// compiles the service and testenv only, not the browser driver and the OpenAPI
// validator the component tests import. Their seeds run with go test ./....
package fuzz
