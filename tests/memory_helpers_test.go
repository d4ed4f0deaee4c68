package tests

import (
	"errors"
	"testing"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// wantInvalid fails unless err is a kernel Invalid naming field: what a use case on the
// memory adapters answers where the API answers 422 with that param.
func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != field {
		t.Fatalf("error %v: want invalid %s", err, field)
	}
}
