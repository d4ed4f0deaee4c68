package tests

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The serve graph, listeners included, resolves without being started.
func TestServiceGraphIsComplete(t *testing.T) {
	if err := fx.ValidateApp(compose.Service(testenv.Config(t, testenv.NewSQLiteURL(t)))); err != nil {
		t.Fatal(err)
	}
}
