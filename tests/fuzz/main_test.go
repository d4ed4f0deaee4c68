package fuzz

import (
	"os"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }
