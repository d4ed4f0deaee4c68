// Package creatorapi is creatorapi's Go client: the types and client oapi-codegen generates
// from the v1 OpenAPI document (api.gen.go, committed; TestGeneratedClientIsCurrent fails when
// it drifts from the document), plus a thin hand-written layer: a transport that paces from
// the rate-limit headers and retries with one Idempotency-Key per logical call, iterators
// over every list, a batch upsert, and the webhook verifier with typed event payloads.
package creatorapi

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -config oapi-codegen.yaml ../../../ports/http/api/v1/openapi/openapi.yaml
