package observe

import (
	"log/slog"
	"os"
)

// NewLogger writes text lines to stderr at level (debug, info, warn, error; info when
// the name is unknown).
func NewLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}
