package router

import (
	"strings"
	"sync/atomic"

	"github.com/ThreeDotsLabs/watermill"
)

// stopLogger reports watermill's "all handlers stopped" as info while our own Stop is
// draining: the drain closes the subscribers before the router on purpose, and an
// operator must not read an error into a clean shutdown. Any other time it stays an error.
type stopLogger struct {
	watermill.LoggerAdapter
	stopping *atomic.Bool
}

func (l stopLogger) Error(msg string, err error, fields watermill.LogFields) {
	if l.stopping.Load() && strings.HasPrefix(msg, "All handlers stopped") {
		l.LoggerAdapter.Info(msg+" (draining on stop)", fields)
		return
	}
	l.LoggerAdapter.Error(msg, err, fields)
}

func (l stopLogger) With(fields watermill.LogFields) watermill.LoggerAdapter {
	return stopLogger{LoggerAdapter: l.LoggerAdapter.With(fields), stopping: l.stopping}
}
